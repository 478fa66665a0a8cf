import fc from "fast-check";

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema is walked as plain JSON.
export type JsonSchema = Record<string, any>;

/** Strings that have broken servers: NUL bytes, lone surrogates, huge, control and path tricks. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\uD800",
    "x\uDFFFy",
    "\uDBFF\uDBFF",
    "😀\uDE00",
    "%00",
    "%ZZ",
    "%c0%ae%c0%ae/",
    "../../etc/passwd",
    "'; drop table users; --",
    ["$", "{jndi:ldap://x}"].join(""),
    "\r\nX-Injected: 1",
    "<script>alert(1)</script>",
    "",
    " ",
    "\u202E\u200B\uFEFF",
    "x".repeat(5000),
    "9".repeat(400),
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({
    unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    maxLength: 30,
  }),
);

/** Numbers at and past every edge. */
export const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, -1e308, 5e-324, 0.5, 1e21),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any JSON value of the wrong type, deep or odd. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [[[[[]]]]], { __proto__: { polluted: 1 } }, { constructor: 1 }),
  hostileNumber,
  hostileString,
  fc.jsonValue({ maxDepth: 3 }),
);

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let depth = 0; current?.$ref && depth < 10; depth++) {
    const path = String(current.$ref).replace(/^#\//, "").split("/");
    current = path.reduce((node: JsonSchema, key) => node?.[key], root);
  }
  return current ?? {};
}

/**
 * Values for a JSON Schema (as OpenAPI carries it): mostly valid-looking ones drawn from the schema, with
 * hostile strings, edge numbers and wrong types mixed in at every level.
 */
export function fromSchema(
  schema: JsonSchema,
  root: JsonSchema,
  pools: Record<string, string[]>,
  depth = 0,
): fc.Arbitrary<unknown> {
  const node = resolve(schema, root);
  const hostile = depth > 4 ? wrongType : fc.oneof(hostileString, hostileNumber, wrongType);
  const alternatives = node.anyOf ?? node.oneOf;
  let valid: fc.Arbitrary<unknown>;
  if (alternatives) {
    valid = fc.oneof(...alternatives.map((item: JsonSchema) => fromSchema(item, root, pools, depth + 1)));
  } else if (node.enum) {
    valid = fc.constantFrom(...node.enum);
  } else if (node.const !== undefined) {
    valid = fc.constant(node.const);
  } else {
    const type = Array.isArray(node.type) ? node.type[0] : node.type;
    switch (type) {
      case "string": {
        const pool = Object.entries(pools).find(([prefix]) =>
          String(node.pattern ?? "").includes(`${prefix}_`),
        );
        valid = fc.oneof(
          pool ? fc.constantFrom(...pool[1]) : fc.string({ maxLength: Math.min(node.maxLength ?? 60, 60) }),
          node.examples?.length
            ? fc.constantFrom(...node.examples)
            : fc.string({ minLength: 1, maxLength: 20 }),
          fc.string({ minLength: 20, maxLength: 80 }),
        );
        break;
      }
      case "integer":
        valid = fc.integer({ min: node.minimum ?? -5, max: Math.min(node.maximum ?? 10_000, 10_000) });
        break;
      case "number":
        valid = fc.double({ noNaN: true, noDefaultInfinity: true });
        break;
      case "boolean":
        valid = fc.boolean();
        break;
      case "null":
        valid = fc.constant(null);
        break;
      case "array":
        valid = fc.array(node.items ? fromSchema(node.items, root, pools, depth + 1) : wrongType, {
          maxLength: Math.min((node.maxItems ?? 6) + 1, 12),
        });
        break;
      case "object": {
        const properties = Object.entries((node.properties ?? {}) as Record<string, JsonSchema>);
        const required = new Set<string>(node.required ?? []);
        const shape = Object.fromEntries(
          properties.map(([key, value]) => [key, fromSchema(value, root, pools, depth + 1)]),
        );
        const base = fc.record(shape, {
          requiredKeys: properties
            .map(([key]) => key)
            .filter((key) => required.has(key) || Math.random() < 0.5),
        });
        // Unknown keys too, including a long one: errors must never echo them back whole.
        valid = fc.oneof(
          base,
          fc
            .tuple(base, fc.constantFrom("unknownField", "k".repeat(100_000), "\u0000", "__proto__"))
            .map(([value, key]) => ({ ...(value as object), [key]: 1 })),
        );
        break;
      }
      default:
        valid = wrongType;
    }
  }
  return fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: hostile });
}
