import { withApi } from "@/lib/api/handler";
import { getChannelSchedule, replaceChannelSchedule } from "@/lib/contracts/posting-schedule";
import {
  getChannelSchedule as readSchedule,
  replaceChannelSchedule as replaceSchedule,
} from "@/lib/publishing/schedule/channel-schedule";

export const dynamic = "force-dynamic";

export const GET = withApi(getChannelSchedule, async ({ principal, params: { channelId } }) =>
  Response.json(await readSchedule({ principal, channelId }), { headers: { "Cache-Control": "no-store" } }),
);

export const PATCH = withApi(replaceChannelSchedule, async ({ principal, params: { channelId }, body }) =>
  Response.json(await replaceSchedule({ principal, channelId, input: body }), {
    headers: { "Cache-Control": "no-store" },
  }),
);
