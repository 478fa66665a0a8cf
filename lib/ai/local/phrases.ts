import type { Channel, Goal } from "@/lib/contracts/posts";
import type { PostBrief } from "../brief-block";
import type { CopyStyle } from "./copy-style";
import type { BrandBrief } from "./read-brand-prompt";
import type { TopicForms, TopicKind, TopicMood } from "./topic";

export type WritingContext = {
  brand: BrandBrief;
  brief: PostBrief;
  style: CopyStyle;
  topic: TopicForms;
  /** The topic as the hook uses it: whole when short, cut to a headline when long. */
  hook: { lead: string; mid: string };
  /** The first link among the assets, for calls to action on channels where links work. */
  link?: string;
  /** "craft, fair trade and community" */
  values?: string;
  /** The audience, ready for the middle of a sentence. */
  audience?: string;
};

type Phrase = (ctx: WritingContext) => string;

const A = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A first line, and what it reads well with: the kinds of topic (grammar), the moods of topic (what it is
 * about; absent = any) and the channels (absent = any). "Where do you stand?" fits a debate, not a launch.
 */
export type Hook = { write: Phrase; fits: TopicKind[]; moods?: TopicMood[]; channels?: Channel[] };

const ANY: TopicKind[] = ["thing", "statement", "question"];
const NOUNLIKE: TopicKind[] = ["thing", "question"];
const bang = ({ style }: WritingContext) => (style.exclaim ? "!" : ".");

/**
 * First lines. Each one names the topic; the goal decides the angle, the topic's mood and the channel
 * narrow the choice. Every goal has at least three lines for every kind of topic, in every channel, so a
 * new seed gives a new opening.
 */
export const HOOKS: Record<Goal, Hook[]> = {
  awareness: [
    { write: ({ hook }) => `${hook.lead}: here's the story.`, fits: ANY },
    { write: ({ hook }) => `Let's talk about ${hook.mid}.`, fits: NOUNLIKE },
    {
      write: ({ hook }) => `Ever stopped to think about ${hook.mid}?`,
      fits: NOUNLIKE,
      moods: ["story", "general", "tips"],
    },
    { write: ({ hook }) => `Here's something worth knowing: ${hook.mid}.`, fits: ANY },
    { write: ({ hook }) => `${hook.lead}. Here's why it matters.`, fits: ["statement"] },
    { write: ({ hook }) => `A closer look at ${hook.mid}.`, fits: ["thing"] },
    { write: ({ hook }) => `${hook.lead}: the honest answer.`, fits: ["question"] },
    {
      write: ({ hook, brand }) => `${hook.lead}: a few thoughts from the ${brand.name} team.`,
      fits: ANY,
      channels: ["linkedin"],
    },
  ],
  engagement: [
    { write: ({ hook }) => `Quick question: what's your take on ${hook.mid}?`, fits: NOUNLIKE },
    { write: ({ hook }) => `${hook.lead}. Where do you stand?`, fits: ANY, moods: ["debate"] },
    { write: ({ hook }) => `We'd love your view on ${hook.mid}.`, fits: NOUNLIKE },
    { write: ({ hook }) => `${hook.lead}. What do you think?`, fits: ANY },
    { write: ({ hook }) => `${hook.lead}. We'd love to hear what you make of it.`, fits: ANY },
    { write: ({ hook }) => `${hook.lead}: tell us your first thought.`, fits: ANY },
    { write: ({ hook }) => `${hook.lead}. What would you try first?`, fits: ["thing"], moods: ["launch"] },
    { write: ({ hook }) => `${hook.lead}. Will we see you there?`, fits: ANY, moods: ["event"] },
    { write: ({ hook }) => `${hook.lead}. Which one would you add?`, fits: NOUNLIKE, moods: ["tips"] },
    {
      write: ({ hook }) => `${hook.lead}: we'd value your experience on this.`,
      fits: ANY,
      channels: ["linkedin"],
    },
  ],
  traffic: [
    { write: ({ hook }) => `${hook.lead}: here's the short version.`, fits: ANY },
    { write: ({ hook }) => `Everything you need to know about ${hook.mid}, in one place.`, fits: NOUNLIKE },
    { write: ({ hook }) => `Curious about ${hook.mid}? We wrote it all down.`, fits: NOUNLIKE },
    { write: ({ hook }) => `${hook.lead}. The full story is waiting for you.`, fits: ANY },
    { write: ({ hook }) => `${hook.lead}, and we've written up the details.`, fits: ["statement"] },
    { write: ({ hook }) => `${hook.lead}: our practical guide.`, fits: ANY, moods: ["tips"] },
  ],
  leads: [
    { write: ({ hook }) => `${hook.lead}: want to be first in line?`, fits: ANY, moods: ["launch", "event"] },
    { write: ({ hook }) => `Interested in ${hook.mid}? Let's talk.`, fits: NOUNLIKE },
    { write: ({ hook }) => `${hook.lead}, and how you can be part of it.`, fits: ["thing"] },
    { write: ({ hook }) => `${hook.lead}: here's how to get involved.`, fits: ANY },
    { write: ({ hook }) => `${hook.lead}. We'd like to tell you more.`, fits: ANY },
    { write: ({ hook }) => `${hook.lead}. If that's of interest, we'd love to hear from you.`, fits: ANY },
    { write: ({ hook }) => `${hook.lead}: save your spot.`, fits: ANY, moods: ["event"] },
    {
      write: ({ hook }) => `${hook.lead}: if it's on your team's list this quarter, let's talk.`,
      fits: ANY,
      channels: ["linkedin"],
    },
  ],
  sales: [
    { write: (ctx) => `${ctx.hook.lead}: ready when you are${bang(ctx)}`, fits: ANY },
    { write: ({ hook }) => `Meet ${hook.mid}.`, fits: ["thing"] },
    {
      write: ({ hook }) => `Treat yourself: ${hook.mid}.`,
      fits: ["thing"],
      channels: ["instagram", "telegram"],
    },
    { write: ({ hook }) => `${hook.lead}. Here's why it's worth it.`, fits: ANY },
    { write: ({ hook }) => `${hook.lead}. Here's what you get.`, fits: ANY },
  ],
  announcement: [
    {
      write: (ctx) =>
        ctx.style.noHype
          ? `News from ${ctx.brand.name}: ${ctx.hook.mid}.`
          : `Big news from ${ctx.brand.name}: ${ctx.hook.mid}${bang(ctx)}`,
      fits: ANY,
    },
    { write: (ctx) => `It's official: ${ctx.hook.mid}${bang(ctx)}`, fits: ANY },
    { write: ({ hook }) => `${hook.lead}. Yes, it's happening.`, fits: ANY },
    { write: ({ hook }) => `We've been waiting to share this: ${hook.mid}.`, fits: ANY },
  ],
};

/** The first lines that fit this brief's goal, channel and topic. */
export function hooksFor(goal: Goal, channel: Channel, topic: Pick<TopicForms, "kind" | "mood">) {
  return HOOKS[goal].filter(
    (hook) =>
      hook.fits.includes(topic.kind) &&
      (!hook.moods || hook.moods.includes(topic.mood)) &&
      (!hook.channels || hook.channels.includes(channel)),
  );
}

export const GOAL_EMOJI: Record<Goal, string> = {
  awareness: "✨",
  engagement: "💬",
  traffic: "👉",
  leads: "✉️",
  sales: "🛍️",
  announcement: "📣",
};

export const AUDIENCE_LINES: Phrase[] = [
  ({ audience }) => `This one is for ${audience}.`,
  ({ audience }) => `For ${audience}, this one is worth a minute.`,
  ({ audience }) => `If you're among ${audience}, you'll want to see this.`,
];

export const VALUE_LINES: Phrase[] = [
  ({ brand, values }) => `At ${brand.name}, it always comes back to ${values}.`,
  ({ brand, values }) =>
    brand.values.length === 1
      ? `${A(values ?? "")} isn't a slogan for us: it shapes everything we make.`
      : `${A(values ?? "")} aren't slogans for us: they shape everything we make.`,
  ({ brand, values }) => `Behind it are the things ${brand.name} cares about most: ${values}.`,
];

export const CARE_LINES: Record<CopyStyle["register"], string[]> = {
  casual: [
    "We sweated the details so you don't have to.",
    "We took our time getting this right, and it shows.",
    "Small details, big difference. That's how we work.",
  ],
  formal: [
    "We took the time to get the details right.",
    "Every detail was considered, from start to finish.",
    "It reflects how we work: carefully and with purpose.",
  ],
};

export const BULLET_INTROS = ["What that means in practice:", "What you can count on:"];
export const BULLETS = [
  (value: string) => `${A(value)} in every detail`,
  (value: string) => `${A(value)}, start to finish`,
  (value: string) => `${A(value)} at the heart of it`,
  (value: string) => `${A(value)} you can feel`,
];

/** Lines for the do-list items the writer recognises. */
/**
 * The do-list's "use concrete numbers": a figure the brief gives is already in the first line; otherwise a
 * count the brand itself states (its values), never an invented statistic.
 */
export function numbersLine({ brand, values, topic }: WritingContext): string | undefined {
  if (topic.hasNumber) return undefined;
  if (values && brand.values.length >= 2) {
    return `${Math.min(brand.values.length, 4)} things we never compromise on: ${values}.`;
  }
  return `1 team, 0 shortcuts: that's how ${brand.name} works.`;
}

export const MOVE_LINES = {
  invite: "Come and see it for yourself. We'd love to welcome you.",
  ask: "What would you like to know about it? Ask us anything.",
  story: "There's a story behind it, and we're proud to tell it.",
  personal: "Speaking for the whole team: this one means a lot to us.",
} as const;

export const MEDIA_LINES: Record<"carousel" | "video", Record<Channel, string>> = {
  carousel: {
    instagram: "Swipe through to see more.",
    linkedin: "Flip through the slides for the details.",
    telegram: "More in the photos below.",
  },
  video: {
    instagram: "Press play to see it in action.",
    linkedin: "Watch the short video to see it in action.",
    telegram: "Watch the video to see it in action.",
  },
};

/**
 * Calls to action by goal. Awareness never sells; traffic, leads and sales always ask for the click, the
 * sign-up or the order. Instagram captions cannot hold links, so it points to the bio instead.
 */
export function callsToAction(ctx: WritingContext): string[] {
  const { brand, brief, link } = ctx;
  const instagram = brief.channel === "instagram";
  switch (brief.goal) {
    case "awareness":
      return [
        `Follow ${brand.name} for more stories like this.`,
        instagram ? "Save this post for later." : "Share it with someone who'd enjoy it.",
        "Want more like this? Follow along.",
        `There's more where this came from: follow ${brand.name}.`,
      ];
    case "engagement":
      return [
        "Tell us what you think in the comments.",
        ctx.topic.mood === "debate"
          ? "Which side are you on? Let us know below."
          : "Drop your thoughts below: we read every one.",
        instagram ? "Tag someone who needs to see this." : "Share your experience in the comments.",
        ...(ctx.topic.mood === "launch" ? ["What would you pair it with? Tell us below."] : []),
        ...(ctx.topic.mood === "event" ? ["Coming along? Say so in the comments."] : []),
      ];
    case "traffic":
      if (instagram) {
        return [
          "Tap the link in our bio to read more.",
          "The full story is one tap away, in our bio.",
          "Head to the link in our bio for all the details.",
        ];
      }
      if (link)
        return [
          `Read the full story: ${link}`,
          `Find all the details here: ${link}`,
          `Take a closer look: ${link}`,
        ];
      return [
        "Read the full story on our website.",
        "Find all the details on our website.",
        brief.channel === "linkedin"
          ? "The link to the full story is in the comments."
          : "Read more on our website.",
      ];
    case "leads":
      if (instagram) {
        return [
          "Tap the link in our bio to sign up.",
          "Send us a DM and we'll share the details.",
          "Sign up through the link in our bio.",
        ];
      }
      if (link) return [`Sign up here: ${link}`, `Get in touch: ${link}`, `Join the list: ${link}`];
      return [
        "Send us a message to find out more.",
        "Join our list to be the first to know.",
        "Get in touch and we'll take it from there.",
      ];
    case "sales":
      if (instagram) {
        return [
          "Shop it through the link in our bio.",
          "Tap the link in our bio to order yours.",
          "Order yours today: the link is in our bio.",
        ];
      }
      if (link) return [`Order yours here: ${link}`, `Shop now: ${link}`, `Get yours today: ${link}`];
      return ["Order yours today.", "Get yours today on our website.", "Order yours on our website."];
    case "announcement":
      return [
        link ? `All the details: ${link}` : "Mark your calendar and spread the word.",
        "Stay tuned: more details soon.",
        `Follow ${brand.name} so you don't miss a thing.`,
      ];
  }
}

/** The few words of the call to action that fit on a closing slide. */
export function shortCallToAction({ brief }: WritingContext): string {
  const instagram = brief.channel === "instagram";
  switch (brief.goal) {
    case "awareness":
      return "Follow for more";
    case "engagement":
      return "Tell us in the comments";
    case "traffic":
      return instagram ? "Link in bio" : "Read the full story";
    case "leads":
      return instagram ? "Sign up: link in bio" : "Sign up today";
    case "sales":
      return instagram ? "Shop: link in bio" : "Order yours today";
    case "announcement":
      return "Spread the word";
  }
}
