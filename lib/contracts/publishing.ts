import { z } from "zod";
import { ERROR_CODE_LIST } from "@/lib/errors/error-codes";
import { languageTag } from "./brands";
import { idOf, isoDateTime, userText } from "./common";
import { CHANNEL_CONNECTION_STATUSES, PUBLICATION_PLACEMENTS, PUBLICATION_STATUSES } from "./enums";
import { defineOperation } from "./operation";
import { CHANNELS } from "./post-rules";
import { PUBLICATION_WINDOW_MAX_DAYS, PUBLISH_AT_MAX_DAYS } from "./publishing-rules";
import { ROUTES } from "./routes";

export const channelConnection = z
  .object({
    channelId: idOf("chn"),
    brandId: idOf("brd"),
    channel: z.enum(CHANNELS),
    accountName: z.string().describe("The channel's name on the platform (a Telegram channel's title)."),
    accountHandle: z
      .string()
      .nullable()
      .describe("The public handle (a channel's @username), when it has one.")
      .meta({ example: "@acme_news" }),
    avatarUrl: z
      .string()
      .nullable()
      .describe(
        "The account's picture: a signed URL of our copy, made when it was connected (the platforms' own links expire), or the platform's link when no copy could be made; null when it has none.",
      ),
    status: z
      .enum(CHANNEL_CONNECTION_STATUSES)
      .describe("`needs_reconnect` once the platform refused the stored token; an owner connects it again."),
    statusMessage: z
      .string()
      .nullable()
      .describe(
        "Why the connection needs attention, or a note about it (for example that media is uploaded because APP_URL is not public).",
      ),
    language: z
      .string()
      .meta({ example: "es" })
      .describe(
        "The language the channel speaks (BCP 47, one of the brand's languages): Publish all languages sends it that language's version of a post group.",
      ),
    mediaDelivery: z
      .enum(["url", "upload"])
      .describe(
        "How a post's media reaches the platform: by a signed URL it fetches (APP_URL is public) or uploaded with the post.",
      ),
    resultsReconnect: z
      .boolean()
      .describe(
        "True when the platform has not granted Brand Studio the permission to read results (an Instagram account connected before Brand Studio asked for instagram_business_manage_insights): publishing still works; an owner connects it again to allow results.",
      ),
    createdAt: isoDateTime,
  })
  .meta({ id: "ChannelConnection" });

export type ChannelConnectionView = z.infer<typeof channelConnection>;

export const listChannelsQuery = z.object({ brandId: idOf("brd") });
export const listChannelsResponse = z.object({ items: z.array(channelConnection) });

const channelLanguage = languageTag()
  .meta({ example: "es" })
  .describe("The channel's language: one of the brand's languages. Absent: the brand's main language.");

export const connectChannelBody = z.object({
  brandId: idOf("brd"),
  channel: z
    .literal("telegram")
    .describe(
      "Telegram connects here with a bot token; LinkedIn and Instagram connect through OAuth (the brand page POSTs /api/channels/oauth/{linkedin|instagram}/start).",
    ),
  botToken: userText()
    .trim()
    .regex(/^\d{3,20}:[A-Za-z0-9_-]{20,100}$/, "Paste the bot token BotFather gave you (123456:ABC…).")
    .describe("The bot's token from @BotFather. Stored encrypted; never returned.")
    .meta({ example: "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw" }),
  chatId: userText()
    .trim()
    .regex(/^(@[A-Za-z][A-Za-z0-9_]{3,31}|-?\d{1,20})$/, "Use the channel's @username or its numeric id.")
    .describe(
      "The channel: its @username, or its numeric id (-100…). The bot must be an administrator there.",
    )
    .meta({ example: "@acme_news" }),
  language: channelLanguage.optional(),
});

export type ConnectChannelInput = z.output<typeof connectChannelBody>;

export const channelParams = z.object({ channelId: idOf("chn") });

export const updateChannelBody = z.strictObject(
  { language: channelLanguage.describe("The channel's language: one of the brand's languages.") },
  { error: (issue) => (issue.code === "unrecognized_keys" ? "Only language can be changed." : undefined) },
);

export type UpdateChannelInput = z.output<typeof updateChannelBody>;

export const publicationStatus = z
  .enum(PUBLICATION_STATUSES)
  .describe(
    "scheduled → publishing → published | failed; canceled from scheduled or held. held: the post was edited after its approval (the brand requires approval) and waits for an owner to approve the new version; the approval makes it scheduled again (due at once when its time has passed). A scheduled publication may be waiting to retry after the platform's 429 (nextAttemptAt); it can still be canceled or moved.",
  );

const placement = z
  .enum(PUBLICATION_PLACEMENTS)
  .describe(
    "feed: a post on the channel. story: the Instagram account's story (24 hours, no caption), made of the post's video or else its first generated image.",
  );

export const publication = z
  .object({
    publicationId: idOf("pub"),
    postId: idOf("pst"),
    brandId: idOf("brd"),
    channelId: idOf("chn").nullable().describe("Null once the channel was disconnected."),
    channel: z.enum(CHANNELS),
    placement,
    status: publicationStatus,
    publishAt: isoDateTime.describe("When it is (or was) due, UTC."),
    nextAttemptAt: isoDateTime
      .nullable()
      .describe(
        "When a scheduled publication that the platform asked to wait (429 retry_after, or a 5xx before anything was posted) runs again; null otherwise.",
      ),
    startedAt: isoDateTime.nullable(),
    publishedAt: isoDateTime.nullable(),
    finishedAt: isoDateTime.nullable(),
    externalId: z
      .string()
      .nullable()
      .describe(
        "The platform's id of the post, once published. Null on a published Instagram post found only through its container (media_publish's answer was lost and no recent post of the account matched the caption); the permalink is then the account's page.",
      ),
    permalink: z
      .string()
      .nullable()
      .describe("The post's public link, once published.")
      .meta({ example: "https://t.me/acme_news/42" }),
    error: z
      .object({
        code: z.enum(ERROR_CODE_LIST).meta({ example: "channel_reauth_required" }),
        message: z.string().describe("What went wrong, with the platform's own message when it gave one."),
        retryable: z.boolean(),
      })
      .nullable()
      .describe("Set only when the publication failed."),
    attempts: z.int().nonnegative().describe("Calls made to the platform so far."),
    createdAt: isoDateTime,
  })
  .meta({ id: "Publication" });

export type PublicationView = z.infer<typeof publication>;

export const createPublicationParams = z.object({ postId: idOf("pst") });

const notTooFar = (value: string) => Date.parse(value) <= Date.now() + PUBLISH_AT_MAX_DAYS * 86_400_000;
const TOO_FAR = `Schedule at most ${PUBLISH_AT_MAX_DAYS} days ahead.`;

/** The create body's fields (Publish all languages picks publishAt from them). */
export const createPublicationFields = z.object({
  channelId: idOf("chn"),
  placement: placement
    .default("feed")
    .describe(
      "feed (the default): a post on the channel. story: the Instagram account's story (Instagram channels only), made of the post's video or else its first generated image; the caption is not sent.",
    ),
  publishAt: isoDateTime
    .refine(notTooFar, TOO_FAR)
    .optional()
    .describe(
      `When to publish, UTC (an offset is accepted). Absent or in the past: now. At most ${PUBLISH_AT_MAX_DAYS} days ahead.`,
    )
    .meta({ example: "2026-12-01T09:00:00Z" }),
  slot: z
    .literal("next")
    .optional()
    .describe(
      "`next`: Add to queue: publish at the channel's next free slot of its posting schedule (instead of publishAt). 409 no_free_slot when it has no schedule or every slot is taken.",
    ),
});

export const createPublicationBody = createPublicationFields.refine(
  (body) => !(body.slot && body.publishAt),
  {
    path: ["slot"],
    message: "Give either publishAt or slot, not both.",
  },
);

export type CreatePublicationInput = z.output<typeof createPublicationBody>;

export const createPublicationResponse = z.object({
  publicationId: idOf("pub"),
  status: z.enum(["scheduled", "publishing"]),
  publishAt: isoDateTime.describe('When it is due, UTC (with `slot: "next"`: the slot it took).'),
});

export const listPublicationsQuery = z
  .object({
    brandId: idOf("brd"),
    from: isoDateTime.optional().describe("Start of the window (publishAt ≥ from). Default: 31 days ago."),
    to: isoDateTime.optional().describe("End of the window (publishAt < to). Default: 31 days after from."),
    postId: idOf("pst").optional().describe("Only this post's publications."),
  })
  .superRefine((query, ctx) => {
    if (query.from && query.to) {
      const span = Date.parse(query.to) - Date.parse(query.from);
      if (span <= 0) ctx.addIssue({ code: "custom", path: ["to"], message: "Make `to` later than `from`." });
      else if (span > PUBLICATION_WINDOW_MAX_DAYS * 86_400_000)
        ctx.addIssue({
          code: "custom",
          path: ["to"],
          message: `Ask for at most ${PUBLICATION_WINDOW_MAX_DAYS} days at a time.`,
        });
    }
  });

export const listPublicationsResponse = z.object({
  items: z.array(
    publication.extend({
      postName: z
        .string()
        .describe(
          "What the calendar names the post by: its topic, else the first eight words of its caption (so the list needs no request per post).",
        ),
    }),
  ),
});

export const publicationParams = z.object({ publicationId: idOf("pub") });

export const reschedulePublicationBody = z
  .strictObject({
    publishAt: isoDateTime
      .refine((value) => Date.parse(value) > Date.now(), "Pick a time in the future.")
      .refine(notTooFar, TOO_FAR)
      .describe(
        `The new time, UTC (an offset is accepted): in the future, at most ${PUBLISH_AT_MAX_DAYS} days ahead.`,
      )
      .meta({ example: "2026-12-02T09:00:00Z" }),
  })
  .meta({ id: "ReschedulePublicationRequest" });

export type ReschedulePublicationInput = z.output<typeof reschedulePublicationBody>;

/** What creating and rescheduling a publication can both answer (the checks they share, and the queue). */
const PUBLISH_CHECK_ERRORS = [
  "invalid_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "channel_reauth_required",
  "publish_rule_violation",
  "provider_unavailable",
  "service_unavailable",
  "internal_error",
] as const;

export const listChannels = defineOperation({
  ...ROUTES.listChannels,
  title: "List channels",
  auth: "bearer",
  summary: "Lists a brand's channel connections (never their tokens), oldest first.",
  query: listChannelsQuery,
  responses: { 200: { description: "The brand's connections.", schema: listChannelsResponse } },
  errors: ["invalid_request", "not_found", "service_unavailable"],
});

export const connectChannel = defineOperation({
  ...ROUTES.connectChannel,
  title: "Connect channel",
  auth: "bearer",
  summary:
    "Connects a Telegram channel to a brand with a bot token, after checking with Telegram that the bot is an administrator that may post there. Owners only.",
  body: connectChannelBody,
  responses: {
    201: {
      description: "Connected (or the same channel connected again with a new token).",
      schema: channelConnection,
    },
  },
  errors: [
    "invalid_request",
    "forbidden",
    "not_found",
    "channel_check_failed",
    "provider_unavailable",
    "service_unavailable",
  ],
});

export const updateChannel = defineOperation({
  ...ROUTES.updateChannel,
  title: "Update channel",
  auth: "bearer",
  summary:
    "Sets the language a channel connection speaks (one of the brand's languages); Publish all languages sends it that language's version. Owners only.",
  pathParams: channelParams,
  body: updateChannelBody,
  responses: { 200: { description: "The connection with its new language.", schema: channelConnection } },
  errors: ["invalid_request", "forbidden", "service_unavailable"],
});

export const disconnectChannel = defineOperation({
  ...ROUTES.disconnectChannel,
  title: "Disconnect channel",
  auth: "bearer",
  summary:
    "Removes a channel connection and its stored token; its scheduled publications are canceled. Owners only.",
  pathParams: channelParams,
  responses: { 204: { description: "The connection is removed." } },
  errors: ["invalid_request", "forbidden", "service_unavailable"],
});

export const createPublication = defineOperation({
  ...ROUTES.createPublication,
  title: "Publish post",
  auth: "bearer",
  permission: "publication.create",
  summary:
    "Publishes a post to a connected channel now, or schedules it for publishAt. The channel's rules are checked first; nothing is sent when they are broken. Owners only.",
  pathParams: createPublicationParams,
  body: createPublicationBody,
  responses: {
    202: {
      description: "Accepted: publishing now (`publishing`) or later (`scheduled`). Poll Location.",
      schema: createPublicationResponse,
      headers: ["Location"],
    },
  },
  errors: ["post_not_approved", "no_free_slot", ...PUBLISH_CHECK_ERRORS],
});

export const listPublications = defineOperation({
  ...ROUTES.listPublications,
  title: "List publications",
  auth: "bearer",
  summary: "Lists a brand's publications due in a window (the calendar), by publishAt.",
  query: listPublicationsQuery,
  responses: { 200: { description: "The publications, earliest first.", schema: listPublicationsResponse } },
  errors: ["invalid_request", "not_found", "service_unavailable"],
});

export const getPublication = defineOperation({
  ...ROUTES.getPublication,
  title: "Get publication",
  auth: "bearer",
  summary: "Returns one publication: its status, and its permalink once published or its error once failed.",
  pathParams: publicationParams,
  responses: { 200: { description: "The publication.", schema: publication } },
  errors: ["invalid_request", "service_unavailable"],
});

export const reschedulePublication = defineOperation({
  ...ROUTES.reschedulePublication,
  title: "Reschedule publication",
  auth: "bearer",
  permission: "publication.cancel",
  summary:
    "Moves a scheduled publication that has not started to a new time. The channel's rules and the brand's approval are checked again, as when it was created; it then runs at the new time only. Owners only.",
  pathParams: publicationParams,
  body: reschedulePublicationBody,
  responses: {
    200: { description: "The publication, due at its new time.", schema: publication },
  },
  errors: ["publication_not_reschedulable", "post_not_approved", ...PUBLISH_CHECK_ERRORS],
});

export const cancelPublication = defineOperation({
  ...ROUTES.cancelPublication,
  title: "Cancel publication",
  auth: "bearer",
  summary: "Cancels a scheduled publication that has not started. Owners only.",
  pathParams: publicationParams,
  responses: {
    200: { description: "The publication, now canceled (also when it already was).", schema: publication },
  },
  errors: ["invalid_request", "forbidden", "publication_not_cancelable", "service_unavailable"],
});

export const markPublicationPostedBody = z
  .strictObject({
    permalink: z
      .url({ protocol: /^https$/, error: "Give the post's https link as the channel shows it." })
      .max(2000)
      .describe("The post's public link, as found on the channel.")
      .meta({ example: "https://t.me/acme_news/42" }),
  })
  .meta({ id: "MarkPublicationPostedRequest" });

export type MarkPublicationPostedInput = z.output<typeof markPublicationPostedBody>;

const RESOLVE_ERRORS = [
  "invalid_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "publication_outcome_known",
  "service_unavailable",
  "internal_error",
] as const;

export const markPublicationPosted = defineOperation({
  ...ROUTES.markPublicationPosted,
  title: "Mark publication posted",
  auth: "bearer",
  permission: "publication.create",
  summary:
    '"It was posted": a publication whose outcome is unknown (failed publish_outcome_unknown) was found on the channel; it becomes published with that link. Owners only.',
  pathParams: publicationParams,
  body: markPublicationPostedBody,
  responses: { 200: { description: "The publication, now published.", schema: publication } },
  errors: [...RESOLVE_ERRORS, "payload_too_large"],
});

export const sendPublicationAgain = defineOperation({
  ...ROUTES.sendPublicationAgain,
  title: "Send publication again",
  auth: "bearer",
  permission: "publication.create",
  summary:
    '"Send again": a publication whose outcome is unknown (failed publish_outcome_unknown) is missing from the channel; checked as at create, it is scheduled now and sent once more. Owners only.',
  pathParams: publicationParams,
  responses: { 200: { description: "The publication, scheduled now.", schema: publication } },
  errors: [...RESOLVE_ERRORS, "post_not_approved", "channel_reauth_required", "publish_rule_violation"],
});
