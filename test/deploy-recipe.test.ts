import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ENV_KEYS } from "@/lib/config";
import packageJson from "@/package.json";

// No Docker daemon runs where these tests run, so the recipe is checked statically: every command the
// containers run exists here, every variable they set is one the app reads, and the roles are wired as
// docs/deploy.md says. The several-process tests run the same commands (scripts/start.mjs, worker/index.ts,
// scripts/db-migrate.ts) as real processes.
const ROOT = path.resolve(__dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

type Service = {
  build?: unknown;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  container_name?: string;
  healthcheck?: { disable?: boolean };
  profiles?: string[];
};
const compose = parse(read("compose.yaml"), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const appServices = ["migrate", "web", "worker"] as const;

/** Checks that a container command names something this repository has. */
function expectRunnable(command: string[] | undefined, where: string) {
  expect(command, where).toBeDefined();
  const [program, ...args] = command as string[];
  if (program === "npm") {
    expect(args[0], where).toBe("run");
    expect(Object.keys(packageJson.scripts), where).toContain(args[1]);
    return;
  }
  expect(program, where).toBe("node");
  const files = args.filter((arg, i) => !arg.startsWith("-") && args[i - 1] !== "--import");
  expect(files.length, where).toBeGreaterThan(0);
  for (const file of files) expect(fs.existsSync(path.join(ROOT, file)), `${where}: ${file}`).toBe(true);
  if (args.includes("--import")) expect(args[args.indexOf("--import") + 1]).toBe("tsx");
}

describe("compose.yaml", () => {
  it("has PostgreSQL, an S3-compatible store with a bucket step, a one-shot migrate, web and worker", () => {
    const always = Object.keys(services).filter((name) => !services[name].profiles);
    expect(always.sort()).toEqual(["create-bucket", "migrate", "minio", "postgres", "web", "worker"].sort());
    // Everything else is the optional observability profile (docs/observability.md).
    const optional = Object.keys(services).filter((name) => services[name].profiles);
    expect(optional.sort()).toEqual(["grafana", "jaeger", "otel-collector", "prometheus"]);
    for (const name of optional) expect(services[name].profiles, name).toEqual(["observability"]);
    expect(services.postgres.image).toMatch(/^postgres:\d+/);
    expect(services.minio.image).toMatch(/^minio\/minio/);
    expect(services["create-bucket"].image).toMatch(/^minio\/mc/);
  });

  it("runs only commands this repository has, all from the one image", () => {
    for (const name of appServices) {
      expectRunnable(services[name].command, name);
      expect(services[name].build, name).toBe(".");
      expect(services[name].image, name).toBe(services.web.image);
    }
    expect(services.migrate.command).toEqual(["npm", "run", "db:migrate"]);
    expect(packageJson.scripts.start).toBe(`node ${services.web.command?.slice(1).join(" ")}`);
    expect(packageJson.scripts.worker).toBe(services.worker.command?.join(" "));
  });

  it("sets only variables the configuration schema knows, with PostgreSQL, S3 and a required AUTH_SECRET", () => {
    for (const name of appServices) {
      const env = services[name].environment ?? {};
      for (const key of Object.keys(env)) expect(ENV_KEYS, `${name}: ${key}`).toContain(key);
      expect(env.NODE_ENV).toBe("production");
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/.+@postgres:5432\//);
      expect(env.MEDIA_STORE).toBe("s3");
      expect(env.S3_ENDPOINT).toBe("http://minio:9000");
      expect(env.AUTH_SECRET).toMatch(/^\$\{AUTH_SECRET:\?/);
    }
  });

  it("starts web and workers only after the migration and the bucket, with the worker out of the web process", () => {
    for (const name of ["web", "worker"] as const) {
      expect(services[name].depends_on).toEqual({
        migrate: { condition: "service_completed_successfully" },
        "create-bucket": { condition: "service_completed_successfully" },
      });
      // Scalable with --scale: no fixed container name, no single fixed host port.
      expect(services[name].container_name).toBeUndefined();
    }
    expect(services.migrate.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    expect(services.web.environment?.WORKER).toBe("off");
    expect(services.web.ports).toEqual([expect.stringMatching(/^\$\{WEB_PORTS:-\d+-\d+\}:3000$/)]);
    expect(services.worker.healthcheck).toEqual({ disable: true });
  });
});

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile");
  const stages = [...dockerfile.matchAll(/^FROM (\S+)(?: AS (\S+))?$/gm)].map((m) => ({
    from: m[1],
    name: m[2],
  }));

  it("is multi-stage on Node 22 LTS (bookworm-slim), which satisfies engines", () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:22-bookworm-slim$/m);
    expect(packageJson.engines.node).toBe(">=22.12");
  });

  it("installs from the lockfile, builds, and installs ffmpeg, espeak-ng and DejaVu from Debian", () => {
    expect(dockerfile).toMatch(/^RUN npm ci\b/m);
    expect(dockerfile).toMatch(/npx next build/);
    const apt = dockerfile.match(/apt-get install[^\n]*/)?.[0] ?? "";
    for (const pkg of ["ffmpeg", "espeak-ng", "fonts-dejavu-core"]) expect(apt).toContain(pkg);
  });

  it("runs as a non-root user, checks /api/health, and starts npm start's command", () => {
    const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK [\s\S]*\/api\/health/m);
    const cmd = JSON.parse(runtime.match(/^CMD (\[.*\])$/m)?.[1] ?? "[]") as string[];
    expect(cmd).toEqual(services.web.command);
  });
});
