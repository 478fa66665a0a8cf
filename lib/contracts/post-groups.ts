import { z } from "zod";
import { ERROR_CODE_LIST } from "@/lib/errors/error-codes";
import { idOf } from "./common";
import { defineOperation } from "./operation";
import { createPublicationFields, createPublicationParams } from "./publishing";
import { ROUTES } from "./routes";

/** Publish all languages (DESIGN §11): each version of a post group to the channels of its language. */
export const publishAllLanguagesBody = createPublicationFields
  .pick({ publishAt: true })
  .strict()
  .meta({ id: "PublishAllLanguagesRequest" });

export type PublishAllLanguagesInput = z.output<typeof publishAllLanguagesBody>;

export const publishAllLanguagesResponse = z
  .object({
    groupId: idOf("pst"),
    items: z
      .array(
        z.object({
          postId: idOf("pst"),
          language: z.string().meta({ example: "es" }),
          channelId: idOf("chn"),
          publicationId: idOf("pub")
            .nullable()
            .describe("The publication made for this version and channel; null when it was refused."),
          status: z.enum(["scheduled", "publishing"]).nullable(),
          error: z
            .object({ code: z.enum(ERROR_CODE_LIST), message: z.string() })
            .nullable()
            .meta({ example: null })
            .describe(
              "Why this one was refused (post_not_approved, publish_rule_violation, channel_reauth_required…); the others go ahead.",
            ),
        }),
      )
      .describe("One entry per version and channel of its language, in the group's language order."),
    unmatched: z
      .array(z.string())
      .meta({ example: [] })
      .describe("Languages of the group with no active channel of that language: nothing was sent for them."),
  })
  .meta({ id: "PublishAllLanguagesResult" });

export const publishAllLanguages = defineOperation({
  ...ROUTES.publishAllLanguages,
  title: "Publish all languages",
  auth: "bearer",
  permission: "publication.create",
  summary:
    "Publishes every language version of the post's group (the newest draft of each language) to the brand's active channels of that language, now or at publishAt. Each publication is checked on its own (the channel's rules, the version's approval); a refused one does not stop the others.",
  pathParams: createPublicationParams,
  body: publishAllLanguagesBody,
  responses: {
    202: {
      description:
        "Accepted: one entry per version and channel, each a publication or the reason it was refused.",
      schema: publishAllLanguagesResponse,
    },
  },
  errors: ["invalid_request", "provider_unavailable"],
});
