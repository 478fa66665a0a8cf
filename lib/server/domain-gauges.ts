import "server-only";
import { registerPublicationGauges } from "@/lib/publishing/publication-gauges";
import { metrics } from "@/lib/telemetry/metrics";
import { registerVideoGauges } from "@/lib/video/video-gauges";
import { registerWebhookGauges } from "@/lib/webhooks/webhook-gauges";

/** Each domain registers its database-wide gauges in the process's registry (before a scrape; idempotent). */
export function registerDomainGauges() {
  const { registry } = metrics();
  registerVideoGauges(registry);
  registerWebhookGauges(registry);
  registerPublicationGauges(registry);
}
