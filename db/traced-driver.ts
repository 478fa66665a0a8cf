import type { PGlite } from "@electric-sql/pglite";
import { type Attributes, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Sql } from "postgres";

/**
 * Database statement spans, at the driver: drizzle runs every statement through postgres.js's
 * `unsafe(text, params)` or PGlite's `query(text, params)` (and their transactions' own), so wrapping
 * those gives one CLIENT span per statement, a child of whatever span is active (an API operation, a job
 * run). The span says what ran, never with what: `db.system` postgresql, `db.operation.name` (SELECT,
 * INSERT …), `db.collection.name` (the first table), `db.query.summary` ("SELECT video_jobs", also the
 * span's name) and `db.query.text` with its literals masked. The bound parameters (emails, token hashes,
 * prompts) are never read.
 *
 * `db/client.ts` wraps the driver only when the entry point asked for it (tracing on); otherwise drizzle
 * gets the driver itself and nothing here runs.
 */

const TRACER = "brand-studio-db";
const MAX_TEXT = 2000;
const MAX_SUMMARIES = 1000;

type Summary = { name: string; attributes: Attributes };

const KEYWORDS = new Set([
  "SELECT",
  "INSERT",
  "UPDATE",
  "DELETE",
  "WITH",
  "BEGIN",
  "COMMIT",
  "ROLLBACK",
  "SAVEPOINT",
  "RELEASE",
  "SET",
  "SHOW",
  "LISTEN",
  "NOTIFY",
  "UNLISTEN",
  "CREATE",
  "ALTER",
  "DROP",
  "TRUNCATE",
  "LOCK",
  "VACUUM",
  "ANALYZE",
  "EXPLAIN",
  "DO",
  "COPY",
]);

const IDENTIFIER = String.raw`("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)(?:\s*\.\s*("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*))?`;
/** The table a statement reads or writes first: after FROM, INTO, UPDATE or JOIN. */
const TABLE = new RegExp(String.raw`\b(?:from|into|update|join)\s+${IDENTIFIER}`, "i");
/** For a WITH, the statement its CTEs feed: the last top-level INSERT/UPDATE/DELETE/SELECT keyword wins. */
const MAIN_VERB = /\b(insert\s+into|update|delete\s+from|select)\b/gi;

const unquote = (name: string) => (name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name);

/** The statement with string, dollar-quoted and numeric literals replaced by `?` ($1 placeholders stay). */
export function maskLiterals(text: string) {
  return text
    .replace(/\$([a-z_]*)\$[\s\S]*?\$\1\$/gi, "?")
    .replace(/'(?:[^']|'')*'/g, "?")
    .replace(/(?<![\w$."])-?\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, "?");
}

const summaries = new Map<string, Summary>();

/** What a span may say about a statement (cached per statement text: drizzle's are few and reused). */
export function summariseStatement(text: string): Summary {
  const cached = summaries.get(text);
  if (cached) return cached;
  const masked = maskLiterals(text);
  const first = /^\s*([a-z]+)/i.exec(masked)?.[1]?.toUpperCase() ?? "";
  let operation = KEYWORDS.has(first) ? first : "QUERY";
  if (operation === "WITH") {
    const verbs = [...masked.matchAll(MAIN_VERB)];
    const main = verbs.at(-1)?.[1];
    if (main) operation = main.split(/\s+/)[0].toUpperCase();
  }
  const table = TABLE.exec(
    operation === "INSERT" || operation === "UPDATE" || operation === "DELETE"
      ? (/\b(?:insert\s+into|update|delete\s+from)\b[\s\S]*/i.exec(masked)?.[0] ?? masked)
      : masked,
  );
  const collection = table
    ? [table[1], table[2]]
        .filter(Boolean)
        .map((part) => unquote(part))
        .at(-1)
    : "";
  const name = collection ? `${operation} ${collection}` : operation;
  const summary: Summary = {
    name,
    attributes: {
      "db.system": "postgresql",
      "db.system.name": "postgresql",
      "db.operation.name": operation,
      "db.query.summary": name,
      "db.query.text": masked.length > MAX_TEXT ? `${masked.slice(0, MAX_TEXT)}…` : masked,
      ...(collection ? { "db.collection.name": collection } : {}),
    },
  };
  if (summaries.size >= MAX_SUMMARIES) summaries.clear();
  summaries.set(text, summary);
  return summary;
}

function startStatementSpan(text: unknown, server: Attributes): Span {
  const { name, attributes } = summariseStatement(typeof text === "string" ? text : String(text));
  return trace
    .getTracer(TRACER)
    .startSpan(name, { kind: SpanKind.CLIENT, attributes: { ...attributes, ...server } });
}

function endStatementSpan(span: Span, rows: number | undefined) {
  if (rows !== undefined && Number.isFinite(rows)) span.setAttribute("db.response.returned_rows", rows);
  span.end();
}

function failStatementSpan(span: Span, error: unknown) {
  // The SQLSTATE, never the message (PostgreSQL quotes the offending value in it).
  const code = (error as { code?: unknown })?.code;
  const errorType = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : "Error";
  span.setAttribute("error.type", errorType);
  if (errorType !== "Error") span.setAttribute("db.response.status_code", errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
  span.end();
}

const nativeThen = Promise.prototype.then;

/** postgres.js, its transactions and savepoints: `unsafe` statements get a span each. */
export function traceSql<T extends Sql>(sql: T, server: Attributes = {}): T {
  return new Proxy(sql, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "unsafe" && typeof value === "function") {
        return (text: string, ...rest: unknown[]) => {
          const span = startStatementSpan(text, server);
          const query = value.call(target, text, ...rest);
          // postgres.js queries are lazy promises that run when first awaited; the native `then` watches
          // the result without starting it (its own `then` would), so `.values()` etc. still apply.
          nativeThen.call(
            query,
            (result: unknown) =>
              endStatementSpan(
                span,
                Array.isArray(result) ? ((result as { count?: number }).count ?? result.length) : undefined,
              ),
            (error: unknown) => failStatementSpan(span, error),
          );
          return query;
        };
      }
      if ((property === "begin" || property === "savepoint") && typeof value === "function") {
        return (...args: unknown[]) => {
          const index = args.findIndex((arg) => typeof arg === "function");
          if (index >= 0) {
            const body = args[index] as (tx: Sql) => unknown;
            args[index] = (tx: Sql) => body(traceSql(tx, server));
          }
          return value.apply(target, args);
        };
      }
      return value;
    },
  });
}

type PgliteQueryable = Pick<PGlite, "query" | "transaction">;

/** PGlite and its transactions: `query` statements get a span each. */
export function tracePglite<T extends PgliteQueryable>(pglite: T): T {
  return new Proxy(pglite, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "query" && typeof value === "function") {
        return async (text: string, ...rest: unknown[]) => {
          const span = startStatementSpan(text, {});
          try {
            const result = await value.call(target, text, ...rest);
            const rows = (result as { rows?: unknown[]; affectedRows?: number }) ?? {};
            endStatementSpan(span, rows.affectedRows || rows.rows?.length);
            return result;
          } catch (error) {
            failStatementSpan(span, error);
            throw error;
          }
        };
      }
      if (property === "transaction" && typeof value === "function") {
        return (body: (tx: PgliteQueryable) => unknown) =>
          value.call(target, (tx: PgliteQueryable) => body(tracePglite(tx)));
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
