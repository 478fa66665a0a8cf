export const EMOJI = /\p{Extended_Pictographic}|\u{FE0F}|\u{200D}|[\u{1F3FB}-\u{1F3FF}]/gu;

/**
 * The words a video speaks and shows, from a post's caption: hashtags, links and emoji are for the feed,
 * not for a voice or a frame (the video font has no emoji).
 */
export function scriptFromCaption(caption: string) {
  return caption
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/(^|\s)#[\p{L}\p{N}_]+/gu, " ")
    .replace(EMOJI, "")
    .replace(/[ \t]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
}
