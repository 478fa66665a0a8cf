import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import {
  channelScheduleParams,
  getChannelSchedule,
  replaceChannelSchedule,
  replaceChannelScheduleBody,
} from "@/lib/contracts/posting-schedule";
import {
  getChannelSchedule as readSchedule,
  replaceChannelSchedule as replaceSchedule,
} from "@/lib/publishing/schedule/channel-schedule";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { channelId } = readParams(params, channelScheduleParams);
    const schedule = await readSchedule({ principal, channelId });
    return Response.json(schedule, { headers: { "Cache-Control": "no-store" } });
  }),
  { docId: getChannelSchedule.id },
);

export const PATCH = withApi(
  withAuth(async (req, { principal, params }) => {
    const { channelId } = readParams(params, channelScheduleParams);
    const input = await readJson(req, replaceChannelScheduleBody);
    const schedule = await replaceSchedule({ principal, channelId, input });
    return Response.json(schedule, { headers: { "Cache-Control": "no-store" } });
  }),
  { docId: replaceChannelSchedule.id },
);
