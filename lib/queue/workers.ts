import type { PgBoss } from "pg-boss";

/**
 * A background capability: its queue and handler. Each domain exports one (avatar training, video); the
 * list of them lives with the worker entry point (`worker/workers.ts`), so this generic layer imports no
 * domain module.
 */
export type QueueWorker = { name: string; start: (boss: PgBoss) => Promise<void> };
