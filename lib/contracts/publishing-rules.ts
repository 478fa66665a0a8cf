// Publishing's limits without zod, for the browser (the publish panel); the contract in publishing.ts
// builds its schemas from them.

/** The publication window GET /api/publications answers at most (the calendar asks for a month or a week). */
export const PUBLICATION_WINDOW_MAX_DAYS = 62;

/** How far ahead a publication may be scheduled (create and reschedule). */
export const PUBLISH_AT_MAX_DAYS = 365;
