import { z } from "zod";
import { isoDateTime } from "./common";
import { defineOperation } from "./operation";
import { ROUTES } from "./routes";

export const healthResponse = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  time: isoDateTime,
  checks: z.object({
    database: z.enum(["ok", "unavailable"]),
    queue: z.enum(["ok", "unavailable"]).describe("A round trip through the job queue's tables."),
    media: z
      .enum(["ok", "unavailable"])
      .describe("A real request to the media store (the S3 bucket, or the local media folder)."),
    ai: z.string().describe("The text model provider in use."),
    video: z.string().describe("The video provider in use."),
    videoStatus: z
      .enum(["ok", "degraded"])
      .describe(
        "degraded while the hosted video provider's circuit breaker is open (new avatar videos answer 503).",
      ),
  }),
});

export type HealthResponse = z.infer<typeof healthResponse>;

export const backendConnectCheck = defineOperation({
  ...ROUTES.backendConnectCheck,
  title: "Backend connect check",
  auth: "none",
  summary:
    "Confirms the backend is reachable and reports the state of its database, queue, media store and providers.",
  responses: {
    200: { description: "The backend, its database, queue and media store answer.", schema: healthResponse },
    503: {
      description: "Degraded: the database, the queue or the media store does not answer.",
      schema: healthResponse,
    },
  },
});
