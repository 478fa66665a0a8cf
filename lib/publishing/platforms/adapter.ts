import type { ChannelConnection, Post, Publication } from "@/db/schema";
import type { PublicationPlacement } from "@/lib/contracts/enums";

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

/** The platform's own limit on posts is used up: nothing was sent, so the run fails as retryable. */
export class PublishingLimitReached extends Error {}

/** What a platform's send is given: what the adapter prepared, and the publication it runs for. */
export type Delivery<Media> = {
  credential: string;
  channel: ChannelConnection;
  text: string;
  media: Media;
  publication: Publication;
};

/**
 * A platform, as a run sees it (run-publication.ts). Everything but `send` posts nothing: the credential
 * (refreshed when close to expiry) and the media are got before the point of no return.
 */
export type PlatformAdapter<Media = unknown> = {
  /**
   * The credential to publish with. Throws SecretDecryptionError when it cannot be read, PlatformError when
   * the platform refused it or did not answer its refresh.
   */
  freshCredentials(channel: ChannelConnection): Promise<string>;
  /** The post's media, read (or signed) now; throws when it cannot be read; `violation`: a rule it breaks. */
  prepareMedia(
    post: Post,
    placement: PublicationPlacement,
  ): Promise<{ media: Media } | { violation: { message: string } }>;
  /** Sends the post, calling `run.commitCall()` right before the call that must not repeat. */
  send(delivery: Delivery<Media>, run: PublishRun): Promise<Sent>;
  /**
   * How a call a run made (and maybe lost) ended, asked of the platform: posted, not posted (`reusable`: the
   * same call may be made again), or null when it cannot be told. Platforms without one: outcome unknown.
   */
  reconcile?(
    publication: Publication,
  ): Promise<{ posted: Sent } | { posted: null; reusable: boolean } | null>;
};
