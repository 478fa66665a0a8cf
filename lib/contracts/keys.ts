import { z } from "zod";
import { idOf, isoDateTime, userText } from "./common";
import { defineOperation } from "./operation";
import { ROUTES } from "./routes";

export const apiKeySummary = z.object({
  keyId: idOf("key"),
  name: z.string(),
  hint: z
    .string()
    .describe("The prefix and last four characters, to recognise the key.")
    .meta({ example: "bsk_…Q2xw" }),
  createdAt: isoDateTime,
  lastUsedAt: isoDateTime.nullable().describe("Updated at most once a minute."),
});

export const listApiKeysResponse = z.object({ items: z.array(apiKeySummary) });

export const createApiKeyBody = z.object({
  name: userText()
    .trim()
    .min(1, "Give the key a name, such as the script that will use it.")
    .max(100, "Use at most 100 characters for the name.")
    .meta({ example: "Publishing script" }),
});

export const createApiKeyResponse = apiKeySummary.extend({
  key: z.string().describe("The secret key. It is shown only in this response.").meta({ example: "bsk_3q…" }),
});

export const keyIdParams = z.object({ keyId: idOf("key") });

export const listApiKeys = defineOperation({
  ...ROUTES.listApiKeys,
  title: "List API keys",
  auth: "bearer",
  summary: "Lists the caller's active API keys (never the keys themselves).",
  responses: { 200: { description: "The active keys, newest first.", schema: listApiKeysResponse } },
  errors: ["service_unavailable"],
});

export const createApiKey = defineOperation({
  ...ROUTES.createApiKey,
  title: "Create API key",
  auth: "bearer",
  summary: "Creates an API key for scripts and integrations. The key is returned once.",
  body: createApiKeyBody,
  responses: { 201: { description: "The key was created.", schema: createApiKeyResponse } },
  errors: ["invalid_request", "payload_too_large", "service_unavailable"],
});

export const revokeApiKey = defineOperation({
  ...ROUTES.revokeApiKey,
  title: "Revoke API key",
  auth: "bearer",
  summary: "Revokes one of the caller's API keys; it stops working at once.",
  pathParams: keyIdParams,
  responses: { 204: { description: "The key is revoked." } },
  errors: ["service_unavailable"],
});
