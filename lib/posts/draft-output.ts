import { z } from "zod";
import { ASPECT_RATIOS, MEDIA_FORMATS } from "@/lib/contracts/posts";

/**
 * What the model is asked to return. It is deliberately loose (no lengths, no hashtag pattern; every field
 * required, so OpenAI's strict structured output accepts it): the channel rules are applied afterwards by
 * repairing the draft, which is more reliable than hoping the model counted characters.
 */
export const draftOutput = z.object({
  caption: z
    .string()
    .describe(
      "The post text for the channel, without hashtags. First line: a hook on the topic. End with the call to action.",
    ),
  hashtags: z.array(z.string()).describe("Hashtags for the post, each starting with #."),
  mediaPlan: z.object({
    format: z.enum(MEDIA_FORMATS),
    items: z
      .array(
        z.object({
          type: z.enum(["image", "video"]),
          description: z.string().describe("What the image or video shows, as a brief for whoever makes it."),
          altText: z.string().describe("Alt text for screen readers."),
          aspectRatio: z.enum(ASPECT_RATIOS),
          overlayText: z.string().nullable().describe("Short text set on the image, or null."),
        }),
      )
      .describe("Empty for a text-only post."),
  }),
});

export type DraftOutput = z.infer<typeof draftOutput>;
