import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BulletList, ErrorTable, FieldSection, FieldTable } from "@/components/api-docs/card-sections";
import { CodeBlock, formatJson } from "@/components/api-docs/code-block";
import { CodeTabs } from "@/components/api-docs/code-tabs";
import { MethodBadge, OwnerPill, StatusPill, TodoMark } from "@/components/api-docs/method-badge";
import { TestPanel } from "@/components/api-docs/test-panel";
import { isTodo, placeholdersOf } from "@/lib/docs/card-schema";
import { loadCard, loadCards } from "@/lib/docs/load-cards";
import { panelContractOf } from "@/lib/docs/panel-contract";
import { CardBody } from "@/lib/docs/render-mdx";
import { typedClientSnippet } from "@/lib/docs/typed-snippet";
import { tagOf } from "@/lib/openapi/tags";

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

const prose = "min-w-0 space-y-10";

export default async function ApiCardPage({ params }: Params) {
  const loaded = loadCard((await params).id);
  if (!loaded) notFound();
  const { card, body } = loaded;
  const group = tagOf(card.endpoint);

  const tabs = [
    { key: "curl", label: "curl", code: card.curl, field: "curl" },
    { key: "fetch", label: "fetch", code: card.fetch, field: "fetch" },
    ...(isTodo(card.endpoint) || isTodo(card.testPath)
      ? []
      : [{ key: "typed", label: "Typed client", code: typedClientSnippet(card) }]),
  ];

  return (
    <article className="grid grid-cols-[minmax(0,1fr)] gap-10 xl:grid-cols-[minmax(0,1fr)_minmax(0,27rem)]">
      <div className={prose}>
        <header className="space-y-4">
          <nav aria-label="Breadcrumb" className="text-sm text-slate-500">
            <Link href="/api-docs" className="hover:text-slate-900">
              API reference
            </Link>{" "}
            / {group} / <span data-field="id">{card.id}</span>
          </nav>
          <h1 data-field="title" className="text-3xl font-semibold tracking-tight">
            {text(card.title)}
          </h1>
          <div className="flex flex-wrap items-center gap-3">
            <span data-field="method">
              <MethodBadge method={card.method} />
            </span>
            <code data-field="endpoint" className="break-all font-mono text-base text-slate-800">
              {text(card.endpoint)}
            </code>
          </div>
          <p data-field="description" className="text-lg leading-relaxed text-slate-600">
            {text(card.description)}
          </p>
          <div className="flex flex-wrap gap-2">
            <span data-field="status">
              <StatusPill status={card.status} />
            </span>
            <span data-field="owner">
              <OwnerPill owner={card.owner} />
            </span>
          </div>
        </header>

        <FieldSection field="useCases" title="When to use it" id="use-cases">
          <BulletList items={card.useCases} />
        </FieldSection>

        <FieldSection field="input" title="Request" id="input">
          <div data-field="siteRequest" className="mb-4">
            <BulletList items={card.siteRequest} />
          </div>
          <FieldTable list={card.input} empty="Nothing to send: no path parameters, no query, no body." />
        </FieldSection>

        <FieldSection field="success" title="Response" id="success">
          <FieldTable list={card.success} empty="No body." />
        </FieldSection>

        <FieldSection field="errors" title="Errors" id="errors">
          <p className="mb-3 text-sm leading-relaxed text-slate-600">
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

        <FieldSection field="frontendLogic" title="Handling it in your UI" id="frontend-logic">
          <BulletList items={card.frontendLogic} />
        </FieldSection>

        <FieldSection field="backendLogic" title="What the server does" id="backend-logic">
          <BulletList items={card.backendLogic} />
        </FieldSection>

        {body.trim() && (
          <section id="notes" data-testid="card-notes" className="scroll-mt-6">
            <h2 className="text-lg font-semibold text-slate-900">Notes and examples</h2>
            <CardBody source={body} />
          </section>
        )}
      </div>

      <aside aria-label="Request and response examples" className="min-w-0">
        <div className="space-y-4 xl:sticky xl:top-4 xl:max-h-[calc(100vh-2rem)] xl:overflow-y-auto xl:pb-4">
          <CodeTabs title="Request" tabs={tabs} />
          <CodeBlock
            title="Example response"
            code={formatJson(card.mockOutput)}
            wrap
            testId="example-response"
            field="mockOutput"
          />
          <TestPanel
            cardId={card.id}
            method={card.method}
            testPath={card.testPath}
            testBody={card.testBody}
            mockOutput={card.mockOutput}
            placeholders={placeholdersOf(card)}
            contract={panelContractOf(card.id)}
          />
        </div>
      </aside>
    </article>
  );
}
