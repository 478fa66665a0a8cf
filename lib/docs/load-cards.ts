import fs from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import type { z } from "zod";
import { type Card, cardSchema } from "./card-schema";

export const CARDS_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "content", "api");

export type LoadedCard = { card: Card; body: string; file: string };

export class InvalidCardError extends Error {
  constructor(
    readonly file: string,
    readonly problems: { field: string; message: string }[],
  ) {
    super(
      `Invalid docs card ${file}:\n${problems.map((problem) => `  - ${problem.field}: ${problem.message}`).join("\n")}`,
    );
    this.name = "InvalidCardError";
  }
}

/** Flattens zod issues to `field: message`, looking inside `X or TODO` unions for the real complaint. */
function problemsOf(issues: z.core.$ZodIssue[], prefix: PropertyKey[] = []): InvalidCardError["problems"] {
  return issues.flatMap((issue) => {
    const at = [...prefix, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors[0]?.length) return problemsOf(issue.errors[0], at);
    if (issue.code === "unrecognized_keys") {
      return [{ field: issue.keys.join(", "), message: "Is not one of the card's 19 fields." }];
    }
    return [{ field: at.map(String).join(".") || "(frontmatter)", message: issue.message }];
  });
}

/** Parses one card file. Throws an `InvalidCardError` that names the file and every bad field. */
export function parseCard(file: string, source: string): LoadedCard {
  let parsed: matter.GrayMatterFile<string>;
  try {
    // A fresh object each time: gray-matter caches by content, and a cached result would hide edits in tests.
    parsed = matter(source, {});
  } catch (error) {
    throw new InvalidCardError(file, [{ field: "(frontmatter)", message: (error as Error).message }]);
  }
  const result = cardSchema.safeParse(parsed.data);
  if (!result.success) throw new InvalidCardError(file, problemsOf(result.error.issues));
  const expectedId = path.basename(file, ".mdx");
  if (result.data.id !== expectedId) {
    throw new InvalidCardError(file, [
      { field: "id", message: `Must equal the file name, "${expectedId}".` },
    ]);
  }
  return { card: result.data, body: parsed.content, file };
}

/** Every card under content/api, sorted by id. Fails on the first invalid card, naming it. */
export function loadCards(dir = CARDS_DIR): LoadedCard[] {
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".mdx"))
    .sort();
  return files.map((name) =>
    parseCard(
      path.relative(process.cwd(), path.join(dir, name)),
      fs.readFileSync(path.join(dir, name), "utf8"),
    ),
  );
}

export function loadCard(id: string, dir = CARDS_DIR): LoadedCard | undefined {
  return loadCards(dir).find((loaded) => loaded.card.id === id);
}
