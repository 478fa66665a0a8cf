import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compile } from "@mdx-js/mdx";
import { describe, expect, it } from "vitest";
import { operations } from "@/lib/contracts";
import type { Operation } from "@/lib/contracts/operation";
import { type Card, errorEntries, fieldEntries, isTodo, placeholdersOf } from "@/lib/docs/card-schema";
import { checkResponse } from "@/lib/docs/check-response";
import { inputFields, successFields, successResponse } from "@/lib/docs/contract-fields";
import { InvalidCardError, loadCards, parseCard } from "@/lib/docs/load-cards";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors/error-codes";
import { buildOpenApiDocument } from "@/lib/openapi/build-document";
import { api } from "./support/http";

const cards = loadCards();
const cardById = new Map(cards.map((loaded) => [loaded.card.id, loaded.card]));
const implemented = operations.map((operation) => [operation.id, operation] as const);

/** The JSON text that starts at `from` in `text` (an object or array), by bracket matching. */
function jsonAt(text: string, from: number) {
  let depth = 0;
  let inString = false;
  for (let index = from; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") depth++;
    else if ((char === "}" || char === "]") && --depth === 0) return text.slice(from, index + 1);
  }
  throw new Error(`Unbalanced JSON in: ${text.slice(from)}`);
}

/** What a curl snippet sends: method, path and JSON body, or the form fields of a multipart upload (`-F "file=@x"`). */
function curlRequest(curl: string) {
  const url = curl.match(/"\$BASE_URL([^"]+)"/)?.[1];
  const method = curl.match(/-X (\w+)/)?.[1] ?? "GET";
  const data = curl.indexOf("-d '");
  const form = [...curl.matchAll(/-F "(\w+)=@?([^"]*)"/g)].map((match) => [match[1], match[2]]);
  const body = form.length
    ? Object.fromEntries(form)
    : data === -1
      ? null
      : JSON.parse(jsonAt(curl, data + 4));
  return { url, method, body, bearer: /Authorization: Bearer \$ACCESS_TOKEN/.test(curl) };
}

/**
 * What a fetch snippet sends. Template placeholders (`${brandId}`, also inside template-literal strings) and
 * bare identifiers in the body (`"brandId": brandId`) stand for the card's `{brandId}`.
 */
function fetchRequest(snippet: string) {
  const normalized = snippet.replace(/`([^`]*)`/g, (_, inner: string) =>
    JSON.stringify(inner.replace(/\$\{(\w+)\}/g, "{$1}")),
  );
  const url = normalized.match(/fetch\("([^"]+)"/)?.[1];
  const method = normalized.match(/method: "(\w+)"/)?.[1] ?? "GET";
  const start = normalized.indexOf("body: JSON.stringify(");
  const text = start === -1 ? null : jsonAt(normalized, start + "body: JSON.stringify(".length);
  const body = text
    ? JSON.parse(text.replace(/:\s*(?!true\b|false\b|null\b)([A-Za-z_$][\w$]*)(?=\s*[,}\]])/g, ': "{$1}"'))
    : null;
  const formFields = [...normalized.matchAll(/form\.append\("(\w+)"/g)].map((match) => match[1]);
  return { url, method, body, formFields, bearer: /Authorization: `Bearer \$\{accessToken\}`/.test(snippet) };
}

const names = (list: { name: string; optional: boolean }[]) =>
  list.map((field) => `${field.name}${field.optional ? "?" : ""}`).sort();

describe("docs cards", () => {
  it("exist for every operation in the registry, exactly once", () => {
    const missing = operations.filter((operation) => !cardById.has(operation.id)).map((op) => op.id);
    expect(missing).toEqual([]);
    expect(new Set(cards.map((loaded) => loaded.card.id)).size).toBe(cards.length);
  });

  it("without an operation in the registry are drafts of planned operations", () => {
    const orphans = cards
      .filter((loaded) => !operations.some((operation) => operation.id === loaded.card.id))
      .filter((loaded) => loaded.card.status !== "draft")
      .map((loaded) => loaded.file);
    expect(orphans).toEqual([]);
  });

  it("of operations in the registry are not drafts", () => {
    const drafts = cards
      .filter((loaded) => operations.some((operation) => operation.id === loaded.card.id))
      .filter((loaded) => loaded.card.status === "draft")
      .map((loaded) => loaded.file);
    expect(drafts).toEqual([]);
  });

  it("have MDX bodies that compile", async () => {
    for (const loaded of cards) {
      await expect(compile(loaded.body), loaded.file).resolves.toBeTruthy();
    }
  });

  it("send a body on DELETE exactly when the operation takes one (delete-account's password)", () => {
    const deletes = implemented.filter(([, operation]) => operation.method === "DELETE");
    expect(deletes.map(([id]) => id)).toContain("delete-account");
    for (const [id, operation] of deletes) {
      expect(cardById.get(id)?.testBody !== null, id).toBe(Boolean(operation.body));
    }
  });

  it("name the same test-panel placeholders in testPath and curl/fetch snippets", () => {
    for (const { card, file } of cards) {
      if (isTodo(card.testPath)) continue;
      const curl = curlRequest(card.curl);
      const fetched = fetchRequest(card.fetch);
      expect(curl.url, `${file} curl`).toBe(card.testPath);
      expect(fetched.url, `${file} fetch`).toBe(card.testPath);
      expect(curl.method, `${file} curl`).toBe(card.method);
      expect(fetched.method, `${file} fetch`).toBe(card.method);
      expect(curl.body, `${file} curl`).toEqual(card.testBody);
      if (fetched.formFields.length) {
        // A multipart upload appends a File the page picked; the card's test body names the fields.
        expect(fetched.formFields.sort(), `${file} fetch`).toEqual(Object.keys(card.testBody ?? {}).sort());
      } else {
        expect(fetched.body, `${file} fetch`).toEqual(card.testBody);
      }
    }
  });
});

describe.each(implemented)("card %s agrees with its contract", (id, operation: Operation) => {
  const card = cardById.get(id) as Card;

  it("has the operation's method and path", () => {
    expect(card.method).toBe(operation.method);
    expect(card.endpoint).toBe(operation.path);
  });

  const isHeader = (entry: { type: string }) => /\(header\)$/.test(entry.type);

  it("lists the contract's input fields, optional ones marked with ?", () => {
    expect(names(fieldEntries(card.input).filter((entry) => !isHeader(entry)))).toEqual(
      names(inputFields(operation)),
    );
  });

  it("lists every request header parameter the OpenAPI document gives the operation", () => {
    const document = buildOpenApiDocument(operations) as {
      paths: Record<
        string,
        Record<string, { parameters?: { in: string; name: string; required?: boolean }[] }>
      >;
    };
    const documented = (document.paths[operation.path]?.[operation.method.toLowerCase()]?.parameters ?? [])
      .filter((parameter) => parameter.in === "header")
      .map((parameter) => ({ name: parameter.name, optional: !parameter.required }));
    expect(names(fieldEntries(card.input).filter(isHeader))).toEqual(names(documented));
  });

  it("lists the contract's success fields", () => {
    expect(names(fieldEntries(card.success))).toEqual(names(successFields(operation)));
  });

  it("lists exactly the operation's error codes, with their retryable flags", () => {
    const entries = errorEntries(card.errors);
    expect(entries.map((entry) => entry.code).sort()).toEqual([...operation.errors].sort());
    for (const entry of entries) {
      expect(entry.retryable, entry.code).toBe(ERROR_CODES[entry.code as ErrorCode].retryable);
    }
  });

  it("has a mockOutput that passes the success response schema", () => {
    const { status } = successResponse(operation);
    expect(checkResponse(operation, status, card.mockOutput)).toMatchObject({ verdict: "pass" });
  });

  it("tests the operation's path, with a placeholder for each path parameter", () => {
    const pathParams = inputFields(operation).filter((field) => field.in === "path");
    const [pathname, query = ""] = String(card.testPath).split("?");
    expect(pathname).toBe(operation.path);
    expect(placeholdersOf({ testPath: pathname, testBody: null }).sort()).toEqual(
      pathParams.map((field) => field.name).sort(),
    );
    const queryNames = inputFields(operation)
      .filter((field) => field.in === "query")
      .map((field) => field.name);
    for (const name of new URLSearchParams(query).keys()) expect(queryNames).toContain(name);
  });

  it("sends the bearer token in its snippets exactly when the operation needs one", () => {
    expect(curlRequest(String(card.curl)).bearer).toBe(operation.auth === "bearer");
    expect(fetchRequest(String(card.fetch)).bearer).toBe(operation.auth === "bearer");
  });

  it("is the one card for its OpenAPI operation", () => {
    const document = buildOpenApiDocument(operations);
    const found = Object.entries(document.paths).flatMap(([template, methods]) =>
      Object.entries(methods)
        .filter(([, entry]) => entry.operationId === id)
        .map(([method]) => `${method.toUpperCase()} ${template}`),
    );
    expect(found).toEqual([`${card.method} ${card.endpoint}`]);
  });
});

describe("cards of operations that are not implemented yet", () => {
  it("are answered by the real 404 of an unknown route, which the test panel shows beside mockOutput", async () => {
    const planned = cards.filter(
      (loaded) => !operations.some((operation) => operation.id === loaded.card.id),
    );
    for (const { card, file } of planned) {
      const url = String(card.testPath).replace(/\{\w+\}/g, "x");
      const { status, body } = await api(url, {
        method: String(card.method),
        json: card.testBody ?? undefined,
      });
      expect(status, file).toBe(404);
      expect(body.error, file).toMatchObject({ code: "not_found", docUrl: "/api-docs" });
    }
  });
});

describe("an invalid card", () => {
  const valid = fs.readFileSync(path.join(process.cwd(), "content/api/backend-connect-check.mdx"), "utf8");
  const file = "content/api/backend-connect-check.mdx";
  const problemsOf = (source: string, name = file) => {
    try {
      parseCard(name, source);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidCardError);
      return (error as InvalidCardError).message;
    }
    throw new Error("The card was accepted.");
  };

  it("is accepted when it is the real card (the baseline of the cases below)", () => {
    expect(parseCard(file, valid).card.id).toBe("backend-connect-check");
  });

  it("fails naming the file and the field for a method outside the allowed set", () => {
    const message = problemsOf(valid.replace(/^method: GET$/m, "method: PUT"));
    expect(message).toContain(file);
    expect(message).toMatch(/- method: /);
  });

  it("fails for a field that is not one of the 19, and for a missing one", () => {
    expect(problemsOf(valid.replace(/^title: /m, "colour: blue\ntitle: "))).toMatch(/- colour: /);
    expect(problemsOf(valid.replace(/^owner: .*\n/m, ""))).toMatch(/- owner: /);
  });

  it("fails for a GET with a test body, a two-sentence description and a malformed error line", () => {
    expect(problemsOf(valid.replace(/^testBody: null$/m, 'testBody: {"a": 1}'))).toMatch(/- testBody: /);
    expect(problemsOf(valid.replace(/^description: (.*)$/m, "description: One. Two."))).toMatch(
      /- description: /,
    );
    expect(problemsOf(valid.replace(/, retryable true$/m, ", maybe"))).toMatch(/- errors\.0: /);
  });

  it("fails when its id is not its file name", () => {
    expect(problemsOf(valid, "content/api/health.mdx")).toMatch(/- id: Must equal the file name/);
  });

  it("stops loadCards, naming the file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cards-"));
    try {
      fs.writeFileSync(
        path.join(dir, "backend-connect-check.mdx"),
        valid.replace(/^status: .*$/m, "status: live"),
      );
      expect(() => loadCards(dir)).toThrow(/backend-connect-check\.mdx:\n {2}- status: /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
