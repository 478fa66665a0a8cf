/** One sample of the Prometheus text exposition format (version 0.0.4). */
export type Sample = { name: string; labels: Record<string, string>; value: number };

const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/y;

function unescapeLabel(value: string) {
  return value.replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
}

function parseNumber(text: string) {
  // Prometheus reads these case-insensitively (prom-client writes "Nan").
  const lower = text.toLowerCase();
  if (lower === "+inf" || lower === "inf") return Number.POSITIVE_INFINITY;
  if (lower === "-inf") return Number.NEGATIVE_INFINITY;
  if (lower === "nan") return Number.NaN;
  const value = Number(text);
  if (text === "" || Number.isNaN(value)) throw new Error(`not a sample value: ${JSON.stringify(text)}`);
  return value;
}

/**
 * Parses the text format strictly enough to catch a broken exposition: every non-comment line must be
 * `name{label="value",…} number [timestamp]`, every sample must belong to a `# TYPE` declared before it,
 * and no family may be declared twice.
 */
export function parsePrometheusText(text: string) {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const [index, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (!line) continue;
    const fail = (why: string) => {
      throw new Error(`line ${index + 1}: ${why}: ${raw}`);
    };
    if (line.startsWith("#")) {
      const match = /^#\s+(HELP|TYPE)\s+([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(.*)$/.exec(line);
      if (match?.[1] === "TYPE") {
        if (types.has(match[2])) fail("family declared twice");
        if (!/^(counter|gauge|histogram|summary|untyped)$/.test(match[3])) fail("unknown type");
        types.set(match[2], match[3]);
      }
      continue;
    }
    const head = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line);
    if (!head) fail("no metric name");
    const name = (head as RegExpExecArray)[1];
    let rest = line.slice(name.length);
    const labels: Record<string, string> = {};
    if (rest.startsWith("{")) {
      const close = rest.indexOf("}");
      if (close < 0) fail("unclosed labels");
      const body = rest.slice(1, close);
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < body.length) {
        const at = LABEL.lastIndex;
        const match = LABEL.exec(body);
        if (!match || LABEL.lastIndex === at) fail("bad label");
        labels[(match as RegExpExecArray)[1]] = unescapeLabel((match as RegExpExecArray)[2]);
      }
      rest = rest.slice(close + 1);
    }
    const [valueText, timestamp, extra] = rest.trim().split(/\s+/);
    if (extra !== undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) fail("trailing text");
    const family = name.replace(/_(bucket|sum|count|total|created)$/, "");
    if (!types.has(name) && !types.has(family)) fail("sample without a # TYPE");
    samples.push({ name, labels, value: parseNumber(valueText) });
  }
  return { samples, types };
}

/** The sum of the samples named `name` whose labels include `labels` (0 when there is none). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  return samples
    .filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** brand_studio_provider_calls_total for one provider and outcome, scraped from a server's /api/metrics. */
export async function providerCalls(server: string, metricsToken: string, provider: string, outcome: string) {
  const response = await fetch(`${server}/api/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  if (response.status !== 200) throw new Error(`/api/metrics answered ${response.status}`);
  const { samples } = parsePrometheusText(await response.text());
  return sampleValue(samples, "brand_studio_provider_calls_total", { provider, outcome });
}
