"use client";

import { useQuery } from "@tanstack/react-query";
import { ErrorNotice } from "@/components/ui/primitives";
import { webhookQueries } from "@/lib/client/queries";
import type { WebhookDeliveryView } from "@/lib/contracts/webhooks";

const STATUS_STYLE: Record<WebhookDeliveryView["status"], string> = {
  pending: "bg-amber-100 text-amber-900",
  succeeded: "bg-emerald-100 text-emerald-900",
  failed: "bg-red-100 text-red-900",
};

/** The delivery log of one endpoint; refreshes every 3 s while a delivery is pending. */
export function WebhookDeliveries({ webhookId }: { webhookId: string }) {
  const deliveries = useQuery(webhookQueries.deliveries(webhookId));
  if (deliveries.isPending) return <p className="text-sm text-slate-500">Loading deliveries…</p>;
  if (deliveries.error)
    return <ErrorNotice message={deliveries.error.message} onRetry={() => deliveries.refetch()} />;
  if (deliveries.data.items.length === 0)
    return (
      <p className="text-sm text-slate-500">No deliveries yet. Send a test event to try the endpoint.</p>
    );
  return (
    <ul className="divide-y divide-slate-100 text-sm" data-testid="webhook-deliveries">
      {deliveries.data.items.map((delivery) => (
        <li key={delivery.deliveryId} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
          <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[delivery.status]}`}>
            {delivery.status}
          </span>
          <span className="font-mono text-xs">{delivery.eventType}</span>
          <span className="text-slate-600">
            {delivery.attempts} attempt{delivery.attempts === 1 ? "" : "s"}
            {delivery.responseStatus !== null && ` · HTTP ${delivery.responseStatus}`}
          </span>
          <span className="text-slate-500">{new Date(delivery.createdAt).toLocaleString()}</span>
          {delivery.lastError && <span className="w-full text-red-700">{delivery.lastError}</span>}
        </li>
      ))}
    </ul>
  );
}
