import { z } from "zod";
import { CARD_METHODS, CARD_OWNERS, CARD_STATUSES, TODO } from "./card-enums";

/**
 * The docs card format of the specification (§2.4), as a zod schema. The frontmatter of every
 * `content/api/<id>.mdx` holds exactly these 19 fields; a value nobody knows yet is the string `TODO`.
 * One deliberate extension: `method` also allows PATCH and DELETE (see docs/api-cards.md).
 */

export { CARD_METHODS, CARD_OWNERS, CARD_STATUSES, TODO };

/**
 * `field: type — description`; a `?` after the name marks an optional field. A request header is listed the
 * same way with a type that ends in `(header)`: `If-None-Match?: string (header) — …`.
 */
export const FIELD_LINE =
  /^(?<name>[A-Za-z_][A-Za-z0-9_-]*)(?<optional>\?)?: (?<type>.+?) — (?<description>.+)$/;
/** `code — condition, retryable true|false` */
export const ERROR_LINE = /^(?<code>[a-z_]+) — (?<condition>.+), retryable (?<retryable>true|false)$/;

const orTodo = <T extends z.ZodType>(schema: T) => z.union([schema, z.literal(TODO)]);
const text = z.string().trim().min(1, "Must not be empty.");
const lines = (line: z.ZodString = text) => orTodo(z.array(line).min(1, "List at least one item."));

const oneSentence = text
  .regex(/[.!?]$/, "Must be one sentence that ends with a full stop.")
  .refine((value) => !/[.!?]\s+[A-Z]/.test(value), "Must be one sentence, not several.");

const pathTemplate = text.regex(/^\/api\/[^\s?#]*$/, "Must be a path under /api/ without a query string.");

export const cardSchema = z
  .strictObject({
    id: text.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Must be a kebab-case slug."),
    title: orTodo(text),
    method: orTodo(z.enum(CARD_METHODS)),
    endpoint: orTodo(pathTemplate),
    status: orTodo(z.enum(CARD_STATUSES)),
    owner: orTodo(z.enum(CARD_OWNERS)),
    description: orTodo(oneSentence),
    useCases: lines(),
    siteRequest: lines(),
    frontendLogic: lines(),
    backendLogic: lines(),
    input: orTodo(z.array(text.regex(FIELD_LINE, "Must read `field: type — description`."))),
    success: orTodo(z.array(text.regex(FIELD_LINE, "Must read `field: type — description`."))),
    errors: lines(text.regex(ERROR_LINE, "Must read `code — condition, retryable true|false`.")),
    testPath: orTodo(text.regex(/^\/api\//, "Must be a path under /api/.")),
    testBody: z.json(),
    mockOutput: z.json(),
    curl: orTodo(text.regex(/^curl /, "Must be a curl command.")),
    fetch: orTodo(text.regex(/\bfetch\(/, "Must call fetch().")),
  })
  .superRefine((card, ctx) => {
    // A DELETE has no body unless its operation takes one (delete-account's password): the drift test
    // in test/docs-cards.test.ts holds each DELETE card to its operation.
    if (card.method === "GET" && card.testBody !== null) {
      ctx.addIssue({ code: "custom", path: ["testBody"], message: `Must be null for ${card.method}.` });
    }
    if ((card.method === "POST" || card.method === "PATCH") && card.testBody === null) {
      ctx.addIssue({
        code: "custom",
        path: ["testBody"],
        message: `Must be a JSON body for ${card.method}.`,
      });
    }
    if (card.testPath !== TODO && card.endpoint !== TODO && card.testPath.split("?")[0] !== card.endpoint) {
      ctx.addIssue({
        code: "custom",
        path: ["testPath"],
        message: `Must call the endpoint ${card.endpoint} (query parameters may follow).`,
      });
    }
  });

export type Card = z.infer<typeof cardSchema>;
export type CardField = keyof Card;
export const CARD_FIELDS = Object.keys(cardSchema.shape) as CardField[];

export type FieldEntry = { name: string; optional: boolean; type: string; description: string };
export type ErrorEntry = { code: string; condition: string; retryable: boolean };

export const isTodo = (value: unknown): value is typeof TODO => value === TODO;

/** The `input` or `success` list as table rows (an unknown list gives none). */
export function fieldEntries(list: Card["input"]): FieldEntry[] {
  if (isTodo(list)) return [];
  return list.map((line) => {
    const { name, optional, type, description } = line.match(FIELD_LINE)!.groups!;
    return { name, optional: optional === "?", type, description };
  });
}

/** The `errors` list as table rows. */
export function errorEntries(list: Card["errors"]): ErrorEntry[] {
  if (isTodo(list)) return [];
  return list.map((line) => {
    const { code, condition, retryable } = line.match(ERROR_LINE)!.groups!;
    return { code, condition, retryable: retryable === "true" };
  });
}

/** Names in `{braces}` in the test path and test body: the values the test panel asks for. */
export function placeholdersOf(card: Pick<Card, "testPath" | "testBody">): string[] {
  const source = `${card.testPath} ${JSON.stringify(card.testBody)}`;
  return [...new Set([...source.matchAll(/\{(\w+)\}/g)].map((match) => match[1]))];
}
