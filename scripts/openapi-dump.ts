import { operations } from "@/lib/contracts";
import { buildOpenApiDocument } from "@/lib/openapi/build-document";

/** Prints the OpenAPI document with sorted keys (to diff it across a refactor): npx tsx scripts/openapi-dump.ts */
const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : value && typeof value === "object"
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, sorted(v)]),
        )
      : value;
console.log(JSON.stringify(sorted(buildOpenApiDocument(operations)), null, 1));
