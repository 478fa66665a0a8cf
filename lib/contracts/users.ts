import { z } from "zod";
import { idOf, isStorableText, STORABLE_TEXT_MESSAGE, userText } from "./common";
import { defineOperation } from "./operation";
import { ROUTES } from "./routes";

export const signUpBody = z.object({
  email: z
    .email("Enter a valid email address.")
    .max(254)
    .refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, abort: true })
    .meta({ example: "maria@example.com" }),
  password: userText()
    .min(8, "Use at least 8 characters for the password.")
    .max(200, "Use at most 200 characters for the password.")
    .meta({ example: "correct-horse-battery" }),
  name: userText()
    .trim()
    .max(100, "Use at most 100 characters for the name.")
    .optional()
    .meta({ example: "Maria" }),
});

export const signUpResponse = z.object({
  userId: idOf("usr"),
  email: z.string(),
  name: z.string().nullable(),
});

export const signUp = defineOperation({
  ...ROUTES.signUp,
  title: "Sign up",
  auth: "none",
  summary: "Creates an account with an email and a password. Turned off when ALLOW_SIGNUP=false (then 404).",
  body: signUpBody,
  responses: {
    201: { description: "The account was created.", schema: signUpResponse, headers: ["Location"] },
  },
  errors: [
    "invalid_request",
    "email_taken",
    "rate_limited",
    "not_found",
    "payload_too_large",
    "service_unavailable",
  ],
});

export const deleteAccountBody = z.strictObject(
  {
    password: signUpBody.shape.password
      .optional()
      .describe("The account's password, to confirm (an account that has one)."),
    confirmEmail: z
      .string()
      .max(254)
      .optional()
      .meta({ example: "maria@example.com" })
      .describe("The account's email, typed to confirm: for an account made by OAuth sign-in (no password)."),
  },
  { error: "Send { password } (or { confirmEmail } for an account with no password)." },
);

export const deleteAccount = defineOperation({
  ...ROUTES.deleteAccount,
  title: "Delete account",
  auth: "bearer",
  summary:
    "Deletes the caller's account from a signed-in session (not an API key), confirmed with its password (or its email, for an account made by OAuth sign-in); throttled like sign-in. Its API keys and tokens stop at once and its personal channel connections are disconnected. Refused while it is a brand's last owner.",
  body: deleteAccountBody,
  responses: { 204: { description: "The account is deleted." } },
  errors: [
    "invalid_request",
    "session_required",
    "last_owner",
    "rate_limited",
    "payload_too_large",
    "service_unavailable",
  ],
});
