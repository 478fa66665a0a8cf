import { type PGlite, parse, protocol, type QueryOptions, type Results } from "@electric-sql/pglite";

/**
 * PGlite's `query` outside a transaction, with the protocol messages batched and the statement prepared once.
 *
 * PGlite's own `query` crosses into its WebAssembly PostgreSQL six times per statement (Parse, Describe
 * statement, Bind, Describe portal, Execute, Sync, each a pass of the server's main loop), and parses and
 * plans the text every time: about 0.2 ms of CPU for `select 1`, on the server's only JavaScript thread.
 * Here each statement text is parsed once as a named prepared statement (its parameter types read back with
 * it), and every run after that is one batch: Bind, Describe portal, Execute, Sync. The answer is parsed
 * with PGlite's own `parseResults`, parameters are serialised with PGlite's own serialisers for the types
 * PostgreSQL reported, and errors are PGlite's (with `query` and `params` set, as its `query` sets them), so
 * drizzle sees the same results and the same errors as before.
 *
 * Queries take PGlite's transaction and query locks in the same order its `query` does, so a statement
 * still waits for an open transaction to finish. Transactions themselves (`pglite.transaction`) are left
 * as they are. At most MAX_STATEMENTS texts are kept; the least recently used is closed to make room. A
 * statement PostgreSQL no longer accepts (its result type changed under it after DDL, or it is gone) is
 * prepared again once.
 */
const MAX_STATEMENTS = 256;
/** `cached plan must not change result type`, `prepared statement does not exist`. */
const REPREPARE_CODES = new Set(["0A000", "26000"]);

type Statement = { name: string; types: number[] };
type QueryFn = PGlite["query"];

function concat(parts: Uint8Array[]) {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const SYNC = protocol.serialize.sync();
const DESCRIBE_PORTAL = protocol.serialize.describe({ type: "P" });
const EXECUTE = protocol.serialize.execute({});

export function pipelinedPglite(pglite: PGlite): PGlite {
  const statements = new Map<string, Statement>();
  let counter = 0;
  /** drizzle passes the same options object (its parsers) for every run of a query: merge them once. */
  const mergedParsers = new WeakMap<object, QueryOptions["parsers"]>();

  function parsersFor(options: QueryOptions | undefined) {
    if (!options?.parsers) return pglite.parsers;
    let merged = mergedParsers.get(options);
    if (!merged) {
      merged = { ...pglite.parsers, ...options.parsers };
      mergedParsers.set(options, merged);
    }
    return merged;
  }

  async function prepare(text: string): Promise<Statement> {
    const parts: Uint8Array[] = [];
    if (statements.size >= MAX_STATEMENTS) {
      const [oldestText, oldest] = statements.entries().next().value as [string, Statement];
      statements.delete(oldestText);
      parts.push(protocol.serialize.close({ type: "S", name: oldest.name }));
    }
    const name = `bs_${++counter}`;
    parts.push(
      protocol.serialize.parse({ name, text }),
      protocol.serialize.describe({ type: "S", name }),
      SYNC,
    );
    const { messages } = await pglite.execProtocol(concat(parts));
    const statement = { name, types: parse.parseDescribeStatementResults(messages) };
    statements.set(text, statement);
    return statement;
  }

  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined, retry: boolean) {
    try {
      let statement = statements.get(text);
      if (statement) {
        // Most recently used last, so the first entry is the one to close when the map is full.
        statements.delete(text);
        statements.set(text, statement);
      } else {
        statement = await prepare(text);
      }
      const { types } = statement;
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const serialize = options?.serializers?.[types[i]] ?? pglite.serializers[types[i]];
        return serialize ? serialize(param) : String(param);
      });
      const { messages } = await pglite.execProtocol(
        concat([
          protocol.serialize.bind({ statement: statement.name, values: values as string[] }),
          DESCRIBE_PORTAL,
          EXECUTE,
          SYNC,
        ]),
      );
      const [result] = parse.parseResults(messages, parsersFor(options) as typeof pglite.parsers, {
        ...options,
        parsers: undefined,
      });
      return result as Results<T>;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (retry && code && REPREPARE_CODES.has(code)) {
        statements.delete(text);
        return run<T>(text, params, options, false);
      }
      throw Object.assign(error as object, { query: text, params, queryOptions: options });
    }
  }

  const query = (<T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
    // Blobs (COPY) and explicit parameter types take PGlite's own path.
    if (options?.blob || options?.paramTypes) return pglite.query<T>(text, params, options);
    return pglite
      ._checkReady()
      .then(() =>
        pglite._runExclusiveTransaction(() =>
          pglite._runExclusiveQuery(() => run<T>(text, params, options, true)),
        ),
      );
  }) as QueryFn;

  return new Proxy(pglite, {
    get(target, property, receiver) {
      if (property === "query") return query;
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
