type Json = Record<string, unknown>;

const walk = (node: unknown, visit: (object: Json) => void) => {
  if (Array.isArray(node)) for (const item of node) walk(item, visit);
  else if (node && typeof node === "object") {
    visit(node as Json);
    for (const value of Object.values(node)) walk(value, visit);
  }
};

/**
 * Moves each `default` into the description ("Default: …") in a request schema. The server fills defaults
 * itself; a `default` keyword would make generators such as openapi-typescript mark the field required.
 */
export function stripRequestDefaults(schema: Json) {
  walk(schema, (object) => {
    if (!("default" in object)) return;
    const text = `Default: ${JSON.stringify(object.default)}.`;
    object.description = object.description ? `${object.description} ${text}` : text;
    delete object.default;
  });
}

/**
 * `\p{L}`-style patterns are valid ECMA-262 only with the `u` flag, which many OpenAPI tools (ajv in
 * Spectral, Prism) do not set, so they reject valid examples. Such a pattern moves to `x-pattern`
 * (unicode) and the description, with `pattern` left out; the server still enforces it.
 */
export function fixUnicodePatterns(schema: Json) {
  walk(schema, (object) => {
    if (typeof object.pattern !== "string" || !/\\[pP]\{/.test(object.pattern)) return;
    const text = `Pattern (Unicode letters and digits): \`${object.pattern}\`.`;
    object["x-pattern"] = object.pattern;
    object.description = object.description ? `${object.description} ${text}` : text;
    delete object.pattern;
  });
}
