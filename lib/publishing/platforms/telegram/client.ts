import "server-only";
import { getEnv } from "@/lib/config";
import { hostOf, platformCall } from "@/lib/publishing/platform-call";
import {
  PlatformError,
  type PlatformFailureKind,
  networkFailure as platformNetworkFailure,
} from "@/lib/publishing/platform-error";

/**
 * The Telegram Bot API (https://core.telegram.org/bots/api), the few methods publishing needs. Every call
 * is `POST {TELEGRAM_API_BASE_URL}/bot<token>/<method>`; answers are `{ok: true, result}` or
 * `{ok: false, error_code, description, parameters?: {retry_after}}`. The token is part of the URL, so no
 * URL of a call is ever logged or put in an error message.
 */

export type TelegramUser = { id: number; is_bot: boolean; first_name: string; username?: string };
export type TelegramChat = { id: number; type: string; title?: string; username?: string };
export type TelegramChatMember = {
  status: "creator" | "administrator" | "member" | "restricted" | "left" | "kicked";
  user: TelegramUser;
  can_post_messages?: boolean;
};
export type TelegramMessage = { message_id: number; date: number; chat: TelegramChat };

export type TelegramFailureKind = PlatformFailureKind;

export class TelegramError extends PlatformError {
  constructor(
    kind: PlatformFailureKind,
    message: string,
    status: number | null = null,
    retryAfterSeconds: number | null = null,
  ) {
    super("Telegram", kind, message, status, retryAfterSeconds);
    this.name = "TelegramError";
  }
}

const networkFailure = (error: unknown) => {
  const failure = platformNetworkFailure("Telegram", error);
  return new TelegramError(failure.kind, failure.message);
};

type Answer<T> =
  | { ok: true; result: T }
  | { ok: false; error_code?: number; description?: string; parameters?: { retry_after?: number } };

/**
 * One Bot API call, in a CLIENT span `telegram <method>` and counted in brand_studio_provider_calls_total
 * (provider `telegram`). The span names the host and the method, never the URL (it holds the bot token).
 */
export function callTelegram<T>(
  token: string,
  method: string,
  body: Record<string, unknown> | FormData,
  options: { timeoutMs?: number } = {},
): Promise<T> {
  const attributes = {
    "brand_studio.telegram_method": method,
    "http.request.method": "POST",
    "server.address": hostOf(getEnv().TELEGRAM_API_BASE_URL),
  };
  return platformCall("telegram", method, attributes, () => requestTelegram<T>(token, method, body, options));
}

async function requestTelegram<T>(
  token: string,
  method: string,
  body: Record<string, unknown> | FormData,
  options: { timeoutMs?: number },
): Promise<T> {
  const env = getEnv();
  const url = `${env.TELEGRAM_API_BASE_URL}/bot${token}/${method}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      ...(body instanceof FormData
        ? { body }
        : { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } }),
      signal: AbortSignal.timeout(options.timeoutMs ?? env.PUBLISH_TIMEOUT_MS),
    });
  } catch (error) {
    throw networkFailure(error);
  }
  let answer: Answer<T> | undefined;
  try {
    answer = (await response.json()) as Answer<T>;
  } catch (error) {
    if ((error as Error).name === "TimeoutError") throw networkFailure(error);
    answer = undefined;
  }
  if (answer?.ok === true && response.ok) return answer.result;
  const status = answer && !answer.ok && answer.error_code ? answer.error_code : response.status;
  const description =
    (answer && !answer.ok && answer.description) || `Telegram answered HTTP ${response.status}.`;
  if (status === 429) {
    const retryAfter = answer && !answer.ok ? (answer.parameters?.retry_after ?? null) : null;
    throw new TelegramError("transient", description, status, retryAfter);
  }
  if (status >= 500) throw new TelegramError("transient", description, status);
  if (status === 401) throw new TelegramError("unauthorized", description, status);
  throw new TelegramError("rejected", description, status);
}

/** The public link of a channel message: t.me/<username>/<id>, or t.me/c/<id>/<id> for a private one. */
export function telegramPermalink(chat: TelegramChat, messageId: number) {
  if (chat.username) return `https://t.me/${chat.username}/${messageId}`;
  const internal = String(chat.id).replace(/^-100/, "").replace(/^-/, "");
  return `https://t.me/c/${internal}/${messageId}`;
}
