/** Text rules every user-sent field follows. No imports: the browser reads these without zod. */

export const STORABLE_TEXT_MESSAGE = "Must not contain NUL bytes or unpaired UTF-16 surrogates.";

/** True for text that can be stored as is: no NUL byte, no lone surrogate. */
export const isStorableText = (value: string) => !value.includes("\u0000") && value.isWellFormed();
