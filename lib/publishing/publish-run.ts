/**
 * What a platform's send may ask of the run that calls it (run-publication.ts). Work that is safe to redo
 * (uploading media) comes first and may take long; the call that must never repeat (the post itself) comes
 * after `commitCall`, which records "the platform call is made" (callStartedAt) before it is sent.
 */
export type PublishRun = {
  /**
   * Marks the call made, committed, before the call that must not repeat. `ref` is what the call is made
   * with that can later tell whether it posted (an Instagram container). Throws RunLostError.
   */
  commitCall(ref?: string): Promise<void>;
  /** Extends the run's lease during long work before that call (each uploaded part). Throws RunLostError. */
  keepAlive(): Promise<void>;
};

/** A post the platform made: its id (null when the platform made it but no answer named it) and its link. */
export type Sent = { externalId: string | null; permalink: string; publishedAt: Date };

/** Another run took the publication over (this one's lease ran out): stop, and send nothing more. */
export class RunLostError extends Error {
  constructor() {
    super("Another run took this publication over.");
    this.name = "RunLostError";
  }
}
