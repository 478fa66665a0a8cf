/** A new access token is minted, and the browser fetches it, once the current one has less than this left. */
export const ACCESS_TOKEN_REFRESH_WINDOW_MS = 5 * 60 * 1000;
