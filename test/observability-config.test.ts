import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { registerDomainGauges } from "@/lib/server/domain-gauges";
import { metrics } from "@/lib/telemetry/metrics";
import { safeAttributes, scrubText } from "@/lib/telemetry/tracing";
import { promtool } from "./support/prometheus-server";

// No Docker here: the observability recipe is checked statically. Every metric an alert or a dashboard
// panel queries must be one this app's registry exposes, so a renamed metric cannot silently blind them.
const ROOT = path.resolve(__dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

/** The metric names a PromQL expression reads (identifiers followed by `{`, `[` or an operator, not functions). */
function metricsIn(expr: string) {
  const names = new Set<string>();
  const cleaned = expr.replace(/\{[^}]*\}/g, "{}").replace(/"[^"]*"/g, '""');
  for (const match of cleaned.matchAll(/\b([a-z_:][a-z0-9_:]*)\b(?!\s*\()/gi)) {
    const name = match[1];
    if (/^(brand_studio_|process_|nodejs_)/.test(name)) names.add(name);
  }
  return [...names];
}

/**
 * The metric families this app's registry declares. Read from the registry, not a scrape: a scrape reads the
 * database for the queue gauges, and this process has none. The domains' gauges are registered first, as the
 * metrics route and the worker's metrics server do before a scrape.
 */
function exposedNames() {
  registerDomainGauges();
  return new Set(
    metrics()
      .registry.getMetricsAsArray()
      .map((metric) => metric.name),
  );
}

describe("the observability recipe", () => {
  it("has valid alert rules for queue age, render failures, breaker, webhook backlog and 5xx, on metrics the registry exposes", () => {
    const rules = parse(read("deploy/prometheus/alerts.yml")) as {
      groups: { name: string; rules: { alert: string; expr: string; for?: string; annotations: object }[] }[];
    };
    const all = rules.groups.flatMap((group) => group.rules);
    const exprs = all.map((rule) => rule.expr).join("\n");
    for (const needed of [
      "brand_studio_video_queue_oldest_age_seconds",
      "brand_studio_job_runs_total",
      "brand_studio_provider_breaker_state",
      "brand_studio_webhook_retry_backlog",
      'status=~"5.."',
    ]) {
      expect(exprs).toContain(needed);
    }
    const exposed = exposedNames();
    for (const rule of all) {
      expect(rule.alert).toMatch(/^BrandStudio[A-Za-z0-9]+$/);
      expect(rule.annotations, rule.alert).toHaveProperty("summary");
      const used = metricsIn(rule.expr);
      expect(used.length, rule.alert).toBeGreaterThan(0);
      for (const name of used) expect(exposed.has(name), `${rule.alert}: ${name}`).toBe(true);
    }
  });

  it("exposes the gauges each domain registers, the publications' included", () => {
    const exposed = exposedNames();
    for (const name of [
      "brand_studio_video_jobs",
      "brand_studio_video_queue_oldest_age_seconds",
      "brand_studio_provider_breaker_state",
      "brand_studio_webhook_pending",
      "brand_studio_webhook_retry_backlog",
      "brand_studio_publications",
      "brand_studio_metrics_snapshot_ok",
    ]) {
      expect(exposed.has(name), name).toBe(true);
    }
  });

  it("has a Grafana dashboard whose every query reads an exposed metric", () => {
    const dashboard = JSON.parse(read("deploy/grafana/brand-studio.json")) as {
      uid: string;
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.uid).toBe("brand-studio");
    const exposed = exposedNames();
    const histogramParts = (name: string) => name.replace(/_(bucket|sum|count)$/, "");
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    for (const panel of dashboard.panels) {
      for (const target of panel.targets) {
        for (const name of metricsIn(target.expr)) {
          expect(exposed.has(name) || exposed.has(histogramParts(name)), `${panel.title}: ${name}`).toBe(
            true,
          );
        }
      }
    }
  });

  it("has Prometheus and collector configs that parse, and point at the metrics endpoints", () => {
    const prometheus = parse(read("deploy/prometheus/prometheus.yml")) as {
      rule_files: string[];
      scrape_configs: { job_name: string; metrics_path: string; authorization: object }[];
    };
    const paths = Object.fromEntries(
      prometheus.scrape_configs.map((job) => [job.job_name, job.metrics_path]),
    );
    expect(paths).toEqual({ "brand-studio-web": "/api/metrics", "brand-studio-worker": "/metrics" });
    for (const job of prometheus.scrape_configs) expect(job.authorization, job.job_name).toBeDefined();
    const collector = parse(read("deploy/otel-collector/config.yaml")) as {
      service: { pipelines: { traces: { receivers: string[] } } };
    };
    expect(collector.service.pipelines.traces.receivers).toEqual(["otlp"]);
  });
});

describe("the observability recipe, checked by Prometheus's own promtool", () => {
  it("parses every alert rule and the shipped configuration", () => {
    const rules = promtool(["check", "rules", "deploy/prometheus/alerts.yml"]);
    expect(rules.code, rules.output).toBe(0);
    // --syntax-only: the rule file and token file are the compose container's paths, not this machine's.
    const config = promtool(["check", "config", "--syntax-only", "deploy/prometheus/prometheus.yml"]);
    expect(config.code, config.output).toBe(0);
  });

  it("passes the alerts' unit tests: every alert fires when its condition has held for its `for`, and stays quiet on a healthy series", () => {
    const tested = promtool(["test", "rules", "deploy/prometheus/alerts.test.yml"]);
    expect(tested.code, tested.output).toBe(0);
    const alerts = (
      parse(read("deploy/prometheus/alerts.yml")) as { groups: { rules: { alert: string }[] }[] }
    ).groups.flatMap((group) => group.rules.map((rule) => rule.alert));
    const cases = (
      parse(read("deploy/prometheus/alerts.test.yml")) as {
        tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
      }
    ).tests.flatMap((test) => test.alert_rule_test);
    for (const alert of alerts) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect(
        mine.some((c) => c.exp_alerts.length > 0),
        `${alert} fires in a test`,
      ).toBe(true);
      expect(
        mine.some((c) => c.exp_alerts.length === 0),
        `${alert} stays quiet in a test`,
      ).toBe(true);
    }
  });
});

describe("span attributes", () => {
  it("drops secret-looking names and cuts signatures, credentials and queries off URLs", () => {
    expect(
      safeAttributes({
        "http.target": "/media/videos/job/video.mp4?exp=1&sig=abc",
        "url.full": "https://user:pass@api.heygen.com/v2/video/generate?key=1",
        "http.request.header.authorization": "Bearer eyJ",
        "brand_studio.api_key": "bsk_123",
        "ai.prompt": "write about our customer Jane",
        "ai.usage.promptTokens": 12,
        note: "see ?sig=abc",
        header: "Bearer abc.def",
        count: 3,
      }),
    ).toEqual({
      "http.target": "/media/videos/job/video.mp4",
      "url.full": "https://api.heygen.com/v2/video/generate",
      "ai.usage.promptTokens": 12,
      count: 3,
    });
  });

  it("turns a Telegram bot token into {token}, in URL paths, free text and span names", () => {
    const token = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
    expect(safeAttributes({ "http.url": `https://api.telegram.org/bot${token}/sendMessage?x=1` })).toEqual({
      "http.url": "https://api.telegram.org/bot{token}/sendMessage",
    });
    expect(safeAttributes({ "next.span_name": `fetch POST bot${token}` })).toEqual({
      "next.span_name": "fetch POST bot{token}",
    });
    expect(scrubText(`fetch POST https://user:pw@api.telegram.org/bot${token}/getMe?sig=1`)).toBe(
      "fetch POST https://api.telegram.org/bot{token}/getMe",
    );
    expect(scrubText("GET /api/video/jobs/{jobId}")).toBe("GET /api/video/jobs/{jobId}");
  });
});
