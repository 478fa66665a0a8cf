/**
 * Quotes a value for /bin/sh and for an ffmpeg filter option alike: inside '…' everything is literal
 * except the quote itself, written '\'' (close, escaped quote, reopen) in both.
 */
export const quote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;
