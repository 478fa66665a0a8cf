import { z } from "zod";
import { ACTIVITY_ACTIONS } from "./activity-actions";
import { cursorPage, idOf, isoDateTime, pageCursor } from "./common";
import { defineOperation } from "./operation";
import { ROUTES } from "./routes";

export const listActivityQuery = z.object({
  cursor: pageCursor("act").optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const activityEntry = z
  .object({
    activityId: idOf("act"),
    brandId: idOf("brd"),
    action: z.enum(ACTIVITY_ACTIONS).meta({ example: "post.approved" }),
    actorId: idOf("usr").nullable().describe("Who did it; null once that account is deleted."),
    actorEmail: z.string().nullable().meta({ example: "maria@example.com" }),
    subjectType: z.string().nullable().meta({ example: "post" }),
    subjectId: z.string().nullable().meta({ example: "pst_7Hq2mXbV9kLr3NpQ" }),
    details: z.record(z.string(), z.unknown()).describe("What changed, by action (roles, fields, comment…)."),
    createdAt: isoDateTime.meta({ example: "2025-05-02T10:00:00.000Z" }),
  })
  .meta({ id: "ActivityEntry" });

export const activityPage = cursorPage(activityEntry).meta({ id: "ActivityPage" });

export const listActivity = defineOperation({
  ...ROUTES.listActivity,
  title: "List brand activity",
  auth: "bearer",
  permission: "activity.read",
  summary: "Who did what to the brand and when, newest first, a page at a time.",
  pathParams: z.object({ brandId: idOf("brd") }),
  query: listActivityQuery,
  responses: { 200: { description: "A page of entries.", schema: activityPage } },
  errors: ["invalid_request"],
});

export type ActivityEntryView = z.infer<typeof activityEntry>;
