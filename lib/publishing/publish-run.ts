/**
 * What a platform's send may ask of the run that calls it (run-publication.ts). Work that is safe to redo
 * (uploading media) comes first and may take long; the call that must never repeat (the post itself) comes
 * after `commitCall`, which records "the platform call is made" (callStartedAt) before it is sent.
 */
export type PublishRun = {
  /** Marks the call made, committed, before the call that must not repeat. Throws RunLostError. */
  commitCall(): Promise<void>;
  /** Extends the run's lease during long work before that call (each uploaded part). Throws RunLostError. */
  keepAlive(): Promise<void>;
};

/** Another run took the publication over (this one's lease ran out): stop, and send nothing more. */
export class RunLostError extends Error {
  constructor() {
    super("Another run took this publication over.");
    this.name = "RunLostError";
  }
}
