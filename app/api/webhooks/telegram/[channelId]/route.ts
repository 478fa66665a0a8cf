import { receiveTelegramUpdate } from "@/lib/analytics/telegram-webhook";
import { withApi } from "@/lib/api/handler";

export const dynamic = "force-dynamic";

/**
 * Telegram's updates for one channel connection (reaction counts), checked by the connection's secret
 * header: a provider's callback, not an API operation with a card; see lib/analytics/telegram-webhook.ts.
 */
export const POST = withApi(
  async (req, { params }) => Response.json(await receiveTelegramUpdate(String(params.channelId ?? ""), req)),
  { operation: "telegram-webhook" },
);
