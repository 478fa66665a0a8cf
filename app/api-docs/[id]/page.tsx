import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BulletList, ErrorTable, FieldSection, FieldTable } from "@/components/api-docs/card-sections";
import { CodeBlock, formatJson } from "@/components/api-docs/code-block";
import { MethodBadge, OwnerPill, StatusPill, TodoMark } from "@/components/api-docs/method-badge";
import { TestPanel } from "@/components/api-docs/test-panel";
import { isTodo, placeholdersOf } from "@/lib/docs/card-schema";
import { loadCard, loadCards } from "@/lib/docs/load-cards";
import { CardBody } from "@/lib/docs/render-mdx";

type Params = { params: Promise<{ id: string }> };

export const dynamicParams = false;

// Prerendered at build time; anything that would make the page per-request (cookies, headers) fails the build.
export const dynamic = "error";

// Every card is validated here at build time; one invalid card fails `next build` with its file and field.
export function generateStaticParams() {
  return loadCards().map(({ card }) => ({ id: card.id }));
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const loaded = loadCard((await params).id);
  return { title: loaded ? `${loaded.card.title} · API docs` : "API docs" };
}

const text = (value: string) => (isTodo(value) ? <TodoMark /> : value);

export default async function ApiCardPage({ params }: Params) {
  const loaded = loadCard((await params).id);
  if (!loaded) notFound();
  const { card, body } = loaded;

  return (
    <article className="space-y-10">
      <header className="space-y-4">
        <nav className="text-sm text-slate-500">
          <Link href="/api-docs" className="hover:text-slate-900">
            API docs
          </Link>{" "}
          / <span data-field="id">{card.id}</span>
        </nav>
        <div className="flex flex-wrap items-center gap-3">
          <span data-field="method">
            <MethodBadge method={card.method} />
          </span>
          <code data-field="endpoint" className="font-mono text-lg text-slate-800">
            {text(card.endpoint)}
          </code>
        </div>
        <h1 data-field="title" className="text-3xl font-semibold tracking-tight">
          {text(card.title)}
        </h1>
        <p data-field="description" className="max-w-3xl text-lg text-slate-600">
          {text(card.description)}
        </p>
        <div className="flex gap-2">
          <span data-field="status">
            <StatusPill status={card.status} />
          </span>
          <span data-field="owner">
            <OwnerPill owner={card.owner} />
          </span>
        </div>
      </header>

      <TestPanel
        cardId={card.id}
        method={card.method}
        testPath={card.testPath}
        testBody={card.testBody}
        mockOutput={card.mockOutput}
        placeholders={placeholdersOf(card)}
      />

      <div className="grid gap-8 md:grid-cols-2">
        <FieldSection field="useCases" title="Use cases">
          <BulletList items={card.useCases} />
        </FieldSection>
        <FieldSection field="siteRequest" title="What the site sends">
          <BulletList items={card.siteRequest} />
        </FieldSection>
        <FieldSection field="frontendLogic" title="Frontend logic">
          <BulletList items={card.frontendLogic} />
        </FieldSection>
        <FieldSection field="backendLogic" title="Backend logic">
          <BulletList items={card.backendLogic} />
        </FieldSection>
      </div>

      <FieldSection field="input" title="Input" id="input">
        <FieldTable list={card.input} empty="Nothing: no path parameters, no query, no body." />
      </FieldSection>
      <FieldSection field="success" title="Success" id="success">
        <FieldTable list={card.success} empty="No body." />
      </FieldSection>
      <FieldSection field="errors" title="Errors" id="errors">
        <p className="mb-3 text-sm text-slate-600">
          Every error has the body{" "}
          <code className="font-mono text-[13px]">
            {"{ error: { code, message, retryable, requestId, docUrl, details? } }"}
          </code>{" "}
          and an <code className="font-mono text-[13px]">X-Request-Id</code> header. Show{" "}
          <code className="font-mono text-[13px]">message</code>; offer a retry only when{" "}
          <code className="font-mono text-[13px]">retryable</code> is true.
        </p>
        <ErrorTable list={card.errors} />
      </FieldSection>

      {body.trim() && (
        <section data-testid="card-notes" className="max-w-3xl">
          <h2 className="text-base font-semibold text-slate-900">Notes and examples</h2>
          <CardBody source={body} />
        </section>
      )}

      <div className="space-y-6">
        <FieldSection field="curl" title="curl">
          {isTodo(card.curl) ? (
            <TodoMark />
          ) : (
            <CodeBlock title="curl" code={card.curl} testId="snippet-curl" />
          )}
        </FieldSection>
        <FieldSection field="fetch" title="fetch">
          {isTodo(card.fetch) ? (
            <TodoMark />
          ) : (
            <CodeBlock title="fetch" code={card.fetch} testId="snippet-fetch" />
          )}
        </FieldSection>
      </div>

      <section className="space-y-4">
        <h2 className="text-base font-semibold text-slate-900">Test data</h2>
        <div className="grid gap-6 lg:grid-cols-3">
          <FieldSection field="testPath" title="Test path">
            <code className="block rounded-md bg-slate-100 px-3 py-2 font-mono text-sm">
              {text(card.testPath)}
            </code>
          </FieldSection>
          <FieldSection field="testBody" title="Test body">
            <CodeBlock
              title="JSON"
              code={card.testBody === null ? "null" : formatJson(card.testBody)}
              copy={false}
            />
          </FieldSection>
          <FieldSection field="mockOutput" title="Mock output">
            <CodeBlock title="JSON" code={formatJson(card.mockOutput)} copy={false} />
          </FieldSection>
        </div>
      </section>
    </article>
  );
}
