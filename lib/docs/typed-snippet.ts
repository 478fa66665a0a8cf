import type { Card } from "./card-schema";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const indent = (text: string, by: string) => text.replaceAll("\n", `\n${by}`);

/**
 * The card's request as a typed openapi-fetch call (types from `npm run api:types`): the path template,
 * `params` from the test path, and the test body. TypeScript then checks the body and types `data` and
 * `error` (with `error.error.details` by code).
 */
export function typedClientSnippet(
  card: Pick<Card, "method" | "endpoint" | "testPath" | "testBody">,
): string {
  const [, query = ""] = card.testPath.split("?");
  const pathParams = [...card.endpoint.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const queryParams = [...new URLSearchParams(query)].map(
    ([name, value]) => `${name}: ${/^\{\w+\}$/.test(value) ? value.slice(1, -1) : JSON.stringify(value)}`,
  );
  const params = [
    pathParams.length ? `path: { ${pathParams.join(", ")} }` : "",
    queryParams.length ? `query: { ${queryParams.join(", ")} }` : "",
  ].filter(Boolean);
  const multipart = card.testBody !== null && card.endpoint.endsWith("/avatar");
  const body = card.testBody === null || multipart ? null : (card.testBody as Json);
  const options = [
    params.length ? `params: { ${params.join(", ")} },` : "",
    body === null ? "" : `body: ${indent(JSON.stringify(body, null, 2), "  ")},`,
    multipart
      ? 'body: { file: "" }, // the form is built below\n  bodySerializer: () => formWith(file),'
      : "",
  ].filter(Boolean);
  const call = options.length
    ? `await client.${card.method}("${card.endpoint}", {\n  ${options.join("\n  ")}\n})`
    : `await client.${card.method}("${card.endpoint}")`;
  return [
    'import createClient from "openapi-fetch";',
    'import type { paths } from "./types/api"; // npm run api:types',
    "",
    "const client = createClient<paths>({",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the snippet is code for the reader to copy.
    "  headers: { Authorization: `Bearer ${accessToken}` },",
    "});",
    ...(multipart
      ? [
          "const formWith = (file: File) => {",
          "  const form = new FormData();",
          '  form.append("file", file);',
          "  return form;",
          "};",
        ]
      : []),
    `const { data, error } = ${call};`,
    "if (error) throw error.error; // typed by code, with its details",
  ].join("\n");
}
