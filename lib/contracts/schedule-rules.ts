// The posting schedule's limits without zod, for the browser (the schedule editor).

/** Slots a channel's weekly schedule may hold. */
export const MAX_SCHEDULE_SLOTS = 70;
