/** The music's level between phrases (−12 dB), and how far it dips while the voice speaks (−16 dB more). */
export const MUSIC_LEVEL = 0.25;
export const MUSIC_DUCKED_SHARE = 0.15;
/** Seconds the dip takes to come in before a phrase and to go out after it. */
const DUCK_RAMP = 0.1;
const FADE_IN = 1;
const FADE_OUT = 1.5;

/**
 * The audio graph: the voice (input `voiceInput`, or silence) with, when the brand has a music track,
 * the track under it: looped and cut to `total` seconds, faded in and out, and ducked by volume
 * automation from the phrases' known times (no compressor has to detect the voice). Ends in `[audio]`.
 */
export function audioGraph(options: {
  voiceInput: number | null;
  musicInput: number | null;
  total: number;
  spoken: { start: number; end: number }[];
}): string {
  const { voiceInput, musicInput, total, spoken } = options;
  const end = total.toFixed(3);
  const voice =
    voiceInput === null
      ? `anullsrc=r=44100:cl=mono,atrim=end=${end}`
      : `[${voiceInput}:a]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=mono`;
  if (musicInput === null) return `${voice}[audio]`;
  const dips = spoken.map(({ start, end }) => {
    const [a, b] = [(start - DUCK_RAMP).toFixed(3), (end + DUCK_RAMP).toFixed(3)];
    return `clip((t-${a})/${DUCK_RAMP},0,1)*clip((${b}-t)/${DUCK_RAMP},0,1)`;
  });
  const duck = dips.length ? `min(1,${dips.join("+")})` : "0";
  return [
    `${voice}[voice]`,
    `[${musicInput}:a]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=mono,atrim=end=${end},asetpts=N/SR/TB,` +
      `volume=volume='${MUSIC_LEVEL}*(1-${1 - MUSIC_DUCKED_SHARE}*${duck})':eval=frame,` +
      `afade=t=in:st=0:d=${FADE_IN},afade=t=out:st=${Math.max(0, total - FADE_OUT).toFixed(3)}:d=${FADE_OUT}[bed]`,
    // amix halves each input (older builds have no normalize=0); volume=2 gives the voice its level back.
    "[voice][bed]amix=inputs=2:duration=first:dropout_transition=0,volume=2[audio]",
  ].join(";\n");
}
