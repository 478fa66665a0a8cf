import "server-only";
import type { ChannelConnection } from "@/db/schema";
import { getEnv } from "@/lib/config";
import { hostOf, platformCall } from "@/lib/publishing/platform-call";
import { kindOfStatus, networkFailure, PlatformError } from "@/lib/publishing/platform-error";
import { freshLinkedInToken } from "@/lib/publishing/platforms/linkedin/adapter";
import { LINKEDIN_VERSION } from "@/lib/publishing/platforms/linkedin/client";
import { mark, NOT_YET, type PlatformPull, type PullTarget } from "./types";

/**
 * LinkedIn results. A member's post: `GET /rest/memberCreatorPostAnalytics?q=entity&entity=(share:{urn})
 * &queryType=…&aggregation=TOTAL`, one metric per call (scope `r_member_postAnalytics`, LinkedIn's
 * Community Management product). A page's post: `GET /rest/organizationalEntityShareStatistics`. When the
 * app was not granted them, `GET /rest/socialMetadata/{urn}` still gives reactions and comments; the rest is
 * unavailable (never 0). Followers: a page's `networkSizes`; a member's are not readable.
 */

const PLATFORM = "LinkedIn";
export const NO_POST_ANALYTICS = "LinkedIn has not granted this app post analytics.";
const MEMBER_QUERIES = [
  ["IMPRESSION", "views"],
  ["MEMBERS_REACHED", "reach"],
  ["REACTION", "reactions"],
  ["COMMENT", "comments"],
  ["RESHARE", "shares"],
] as const;

async function rest<T>(call: string, pathAndQuery: string, accessToken: string): Promise<T> {
  const base = getEnv().LINKEDIN_API_BASE_URL;
  return platformCall(
    "linkedin",
    call,
    { "brand_studio.linkedin_call": call, "http.request.method": "GET", "server.address": hostOf(base) },
    async () => {
      let response: Response;
      try {
        response = await fetch(`${base}${pathAndQuery}`, {
          headers: {
            Authorization: `Bearer ${accessToken}`,
            "LinkedIn-Version": LINKEDIN_VERSION,
            "X-Restli-Protocol-Version": "2.0.0",
          },
          redirect: "manual",
          signal: AbortSignal.timeout(getEnv().PUBLISH_TIMEOUT_MS),
        });
      } catch (error) {
        throw networkFailure(PLATFORM, error);
      }
      const body = (await response.json().catch(() => ({}))) as T & { message?: string };
      if (response.ok) return body;
      const retryAfter = Number(response.headers.get("retry-after"));
      throw new PlatformError(
        PLATFORM,
        kindOfStatus(response.status),
        body.message ?? `LinkedIn answered HTTP ${response.status}.`,
        response.status,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
      );
    },
  );
}

const denied = (error: unknown) => error instanceof PlatformError && error.status === 403;
const isPage = (channel: ChannelConnection) => channel.externalId.startsWith("urn:li:organization:");

async function memberPull(token: string, urn: string): Promise<PlatformPull> {
  const entity = `(${urn.startsWith("urn:li:ugcPost:") ? "ugc" : "share"}:${encodeURIComponent(urn)})`;
  const values: PlatformPull["values"] = {};
  for (const [queryType, name] of MEMBER_QUERIES) {
    const answer = await rest<{ elements?: { count?: number }[] }>(
      "memberCreatorPostAnalytics",
      `/rest/memberCreatorPostAnalytics?q=entity&entity=${entity}&queryType=${queryType}&aggregation=TOTAL`,
      token,
    );
    const count = answer.elements?.[0]?.count;
    if (typeof count === "number") values[name] = count;
  }
  return withInteractions(values, ["views", "reach", "reactions", "comments", "shares"]);
}

async function pagePull(token: string, organization: string, urn: string): Promise<PlatformPull> {
  const list = urn.startsWith("urn:li:ugcPost:") ? "ugcPosts" : "shares";
  const answer = await rest<{
    elements?: {
      totalShareStatistics?: {
        impressionCount?: number;
        uniqueImpressionsCount?: number;
        likeCount?: number;
        commentCount?: number;
        shareCount?: number;
      };
    }[];
  }>(
    "organizationalEntityShareStatistics",
    `/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${encodeURIComponent(organization)}&${list}=List(${encodeURIComponent(urn)})`,
    token,
  );
  const stats = answer.elements?.[0]?.totalShareStatistics;
  const values: PlatformPull["values"] = {};
  if (stats) {
    values.views = stats.impressionCount;
    values.reach = stats.uniqueImpressionsCount;
    values.reactions = stats.likeCount;
    values.comments = stats.commentCount;
    values.shares = stats.shareCount;
  }
  return withInteractions(values, ["views", "reach", "reactions", "comments", "shares"]);
}

/** Reactions and comments only, when post analytics were not granted. */
async function socialMetadataPull(token: string, urn: string): Promise<PlatformPull> {
  const answer = await rest<{
    reactionSummaries?: Record<string, { count?: number }>;
    commentSummary?: { count?: number };
  }>("socialMetadata", `/rest/socialMetadata/${encodeURIComponent(urn)}`, token);
  const reactions = Object.values(answer.reactionSummaries ?? {}).reduce((sum, r) => sum + (r.count ?? 0), 0);
  const values = { reactions, comments: answer.commentSummary?.count ?? 0 };
  const pull = withInteractions(values, ["reactions", "comments"]);
  return {
    ...pull,
    missing: { ...pull.missing, ...mark(["views", "reach", "shares"], "unavailable", NO_POST_ANALYTICS) },
    notice: NO_POST_ANALYTICS,
  };
}

/** Interactions = reactions + comments + shares (those given); LinkedIn reports no saves. */
function withInteractions(
  given: PlatformPull["values"],
  asked: ("views" | "reach" | "reactions" | "comments" | "shares")[],
): PlatformPull {
  const values: PlatformPull["values"] = {};
  for (const name of asked) if (typeof given[name] === "number") values[name] = given[name];
  const parts = (["reactions", "comments", "shares"] as const).filter((name) => asked.includes(name));
  if (parts.length && parts.every((name) => values[name] !== undefined))
    values.interactions = parts.reduce((sum, name) => sum + (values[name] ?? 0), 0);
  const pending = [...asked, "interactions" as const].filter((name) => values[name] === undefined);
  return {
    values,
    missing: {
      ...mark(["saves"], "unavailable", "LinkedIn does not report saves."),
      ...mark(pending, "pending", NOT_YET),
    },
    notice: null,
  };
}

export async function pullLinkedIn(channel: ChannelConnection, target: PullTarget): Promise<PlatformPull> {
  const token = await freshLinkedInToken(channel);
  try {
    return isPage(channel)
      ? await pagePull(token, channel.externalId, target.externalId)
      : await memberPull(token, target.externalId);
  } catch (error) {
    if (!denied(error)) throw error;
    return socialMetadataPull(token, target.externalId);
  }
}

export async function linkedinFollowers(channel: ChannelConnection): Promise<number | null> {
  if (!isPage(channel)) return null;
  const token = await freshLinkedInToken(channel);
  const answer = await rest<{ firstDegreeSize?: number }>(
    "networkSizes",
    `/rest/networkSizes/${encodeURIComponent(channel.externalId)}?edgeType=COMPANY_FOLLOWED_BY_MEMBER`,
    token,
  );
  return typeof answer.firstDegreeSize === "number" ? answer.firstDegreeSize : null;
}
