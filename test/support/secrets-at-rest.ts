import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { TestServer } from "./test-server";

function filesBelow(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesBelow(file) : [file];
  });
}

/**
 * Channel credentials are unreadable at rest: no secret in a `pg_dump` of channel_connections (PostgreSQL,
 * where `visible`, a plain column of the row, shows the dump holds the connection), or in any file of the
 * embedded database (PGlite).
 */
export function expectNoSecretAtRest(server: TestServer, secrets: string[], visible: string) {
  expect(secrets.length).toBeGreaterThan(0);
  if (server.databaseUrl) {
    const dump = execFileSync("pg_dump", ["--data-only", "--table=channel_connections", server.databaseUrl], {
      encoding: "utf8",
    });
    expect(dump).toContain(visible);
    for (const secret of secrets) expect(dump).not.toContain(secret);
    return;
  }
  const files = filesBelow(path.join(server.dataDir, "pglite"));
  expect(files.length).toBeGreaterThan(0);
  for (const secret of secrets) {
    const bytes = Buffer.from(secret);
    for (const file of files) expect(fs.readFileSync(file).includes(bytes), file).toBe(false);
  }
}
