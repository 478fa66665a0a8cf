import client from "prom-client";

/**
 * Database-wide gauges, registered by the domains that own the tables (lib/server/domain-gauges.ts calls
 * them): each domain's snapshot is read once per scrape, shared by the collect() callbacks of its gauges, so
 * every process reports the same values. A database that does not answer gives zeros and
 * `brand_studio_metrics_snapshot_ok 0` rather than a failed scrape. Telemetry reads no domain table itself.
 */

export type DatabaseGauge<T> = {
  name: string;
  help: string;
  labelNames?: readonly string[];
  /** Sets the gauge from this scrape's snapshot (reset it first when it has labels). */
  collect: (gauge: client.Gauge, snapshot: T) => void;
};

type Source = { read: () => Promise<unknown>; empty: unknown };
type Read = { at: number; result: Promise<{ ok: boolean; value: unknown }> };

/** One scrape's gauges come from one read: the callbacks of a scrape run within this window. */
const SHARE_MS = 1000;
const state = globalThis as unknown as {
  brandStudioGaugeSources?: Map<string, Source>;
  brandStudioGaugeReads?: Map<string, Read>;
};
const sources = () => {
  state.brandStudioGaugeSources ??= new Map();
  return state.brandStudioGaugeSources;
};
const reads = () => {
  state.brandStudioGaugeReads ??= new Map();
  return state.brandStudioGaugeReads;
};

function snapshotOf(name: string): Promise<{ ok: boolean; value: unknown }> {
  const cached = reads().get(name);
  if (cached && Date.now() - cached.at < SHARE_MS) return cached.result;
  const source = sources().get(name);
  if (!source) return Promise.resolve({ ok: false, value: undefined });
  const result = source.read().then(
    (value) => ({ ok: true, value }),
    () => ({ ok: false, value: source.empty }),
  );
  reads().set(name, { at: Date.now(), result });
  return result;
}

/**
 * Registers `gauges` in the process's registry, fed by one `read` of the database per scrape (`empty` when
 * it fails). Registering the same gauges again (a second call) is a no-op.
 */
export function registerDatabaseGauges<T>(
  registry: client.Registry,
  source: string,
  read: () => Promise<T>,
  empty: T,
  gauges: DatabaseGauge<T>[],
) {
  sources().set(source, { read, empty });
  for (const gauge of gauges) {
    if (registry.getSingleMetric(gauge.name)) continue;
    new client.Gauge({
      name: gauge.name,
      help: gauge.help,
      labelNames: gauge.labelNames ?? [],
      registers: [registry],
      async collect() {
        gauge.collect(this, (await snapshotOf(source)).value as T);
      },
    });
  }
}

/** True when every registered domain's snapshot of this scrape could be read. */
export async function databaseSnapshotsOk(): Promise<boolean> {
  const results = await Promise.all([...sources().keys()].map(snapshotOf));
  return results.every((result) => result.ok);
}

/** A new scrape starts: its gauges read the database afresh. */
export function forgetDatabaseSnapshots() {
  reads().clear();
}
