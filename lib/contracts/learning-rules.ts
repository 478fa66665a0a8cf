// Learning from results without zod, for the browser (the editor's note).

/** DESIGN §11 / issue 41: drafts learn from a channel's results once it has this many measured posts. */
export const LEARNING_MIN_POSTS = 10;
