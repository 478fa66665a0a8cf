import { ApiKeysPanel } from "@/components/auth/api-keys-panel";
import { WebhooksPanel } from "@/components/webhooks/webhooks-panel";

export const metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
        <p className="text-sm text-slate-600">API keys and webhooks for scripts and integrations.</p>
      </div>
      <ApiKeysPanel />
      <h2 className="pt-2 text-xl font-semibold tracking-tight">Webhooks</h2>
      <WebhooksPanel />
    </div>
  );
}
