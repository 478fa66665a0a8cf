"use client";

import Link from "next/link";
import { useEffect, useMemo, useRef, useState } from "react";
import { useSession } from "@/lib/client/session";
import { operationUrl } from "@/lib/contracts/operation";
import { ROUTES } from "@/lib/contracts/routes";
import type { LiveCheck } from "@/lib/docs/check-live-response";
import type { PanelContract } from "@/lib/docs/panel-contract";
import { fillJson, fillPath, firstItem, NONCE, newNonce, PLACEHOLDER_SOURCES } from "@/lib/docs/placeholders";
import { testSafetyOf } from "@/lib/docs/test-safety";
import { formatJson } from "./code-block";
import { JobPoller } from "./job-poller";
import { ConfirmChange, SafetyNote, SandboxButton } from "./safety-gate";
import { describeTarget, type Target } from "./sandbox";
import { type LiveResponse, sendRequest } from "./send-request";
import { formDataOf } from "./upload-fields";
import { VerdictBanner } from "./verdict-banner";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

type Props = {
  cardId: string;
  method: string;
  testPath: string;
  testBody: Json;
  mockOutput: Json;
  placeholders: string[];
  /** From the operation's contract, worked out on the server; null when the registry has no such operation. */
  contract: PanelContract | null;
};

type Result = LiveResponse & { check: LiveCheck };

const routes = Object.values(ROUTES);

/** The contract check (zod, every operation) loads with the first answer, not with the page. */
const loadCheck = () => import("@/lib/docs/check-live-response").then((module) => module.checkLiveResponse);
type Lookup = { state: "idle" | "looking" | "found" | "missing"; note?: string };

const statusTone = (status: number) =>
  status < 300
    ? "bg-emerald-700"
    : status < 400
      ? "bg-slate-600"
      : status < 500
        ? "bg-amber-700"
        : "bg-red-700";

/**
 * What to look up for these placeholders, in order: what a list needs first (the brandId that list-posts
 * filters by), even when the card itself does not ask for it.
 */
function lookupOrder(names: string[]): string[] {
  const ordered: string[] = [];
  const visit = (name: string) => {
    if (ordered.includes(name)) return;
    for (const need of PLACEHOLDER_SOURCES[name]?.needs ?? []) visit(need);
    ordered.push(name);
  };
  for (const name of names) visit(name);
  return ordered;
}

/**
 * The card's live test: sends testBody (editable) to testPath on this backend with the signed-in user's
 * token, shows what came back, and checks it against the operation's zod contract from the registry.
 */
export function TestPanel({ cardId, method, testPath, testBody, mockOutput, placeholders, contract }: Props) {
  const needsToken = contract?.auth !== "none";
  const multipart = contract?.multipart ?? false;
  const fileFields = contract?.fileFields ?? [];
  const [files, setFiles] = useState<Record<string, File | undefined>>({});
  const session = useSession();
  const [values, setValues] = useState(
    (): Record<string, string> => (placeholders.includes(NONCE) ? { [NONCE]: newNonce() } : {}),
  );
  const [lookups, setLookups] = useState<Record<string, Lookup>>({});
  const [bodyText, setBodyText] = useState(testBody === null ? "" : formatJson(testBody));
  const [result, setResult] = useState<Result | null>(null);
  // The answer lands below the button, often below the fold of the docs' sticky column: bring it into view.
  const resultBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result) resultBox.current?.scrollIntoView({ block: "start" });
  }, [result]);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const safety = useMemo(
    () => testSafetyOf({ id: cardId, method, endpoint: testPath.split("?")[0], testBody }),
    [cardId, method, testPath, testBody],
  );
  // A changing operation's target is never filled from the user's data: only a sandbox or a typed id.
  const target = safety.kind === "change" ? safety.param : undefined;
  const autoFilled = useMemo(() => placeholders.filter((name) => name !== target), [placeholders, target]);
  const [chosen, setChosen] = useState<Target | null>(null);
  const [confirming, setConfirming] = useState(false);

  const bodyError = useMemo(() => {
    if (testBody === null) return null;
    try {
      JSON.parse(fillJson(bodyText, values));
      return null;
    } catch (error) {
      return `The body is not valid JSON: ${(error as Error).message}`;
    }
  }, [bodyText, values, testBody]);

  // Fill path parameters from the signed-in user's own data: newest brand, its newest post, job or key.
  useEffect(() => {
    if (session.status !== "authenticated") return;
    let canceled = false;
    (async () => {
      const found: Record<string, string> = {};
      for (const name of lookupOrder(autoFilled)) {
        // Names the card does not show (a brandId a post list needs) are looked up quietly.
        const note = (lookup: Lookup) =>
          autoFilled.includes(name) && setLookups((current) => ({ ...current, [name]: lookup }));
        const source = PLACEHOLDER_SOURCES[name];
        const list = source && routes.find((candidate) => candidate.id === source.listOperation);
        if (!source || !list) {
          if (name !== NONCE) note({ state: "missing", note: "Type one." });
          continue;
        }
        note({ state: "looking" });
        // What the list needs goes in its path where the path names it, else in the query.
        const query = new URLSearchParams(
          (source.needs ?? [])
            .filter((need) => found[need] && !list.path.includes(`{${need}}`))
            .map((need) => [need, found[need]]),
        );
        let lookup: Lookup = {
          state: "missing",
          note: `None found by ${list.method} ${list.path}; type one.`,
        };
        try {
          const response = await sendRequest({
            method: "GET",
            url: `${operationUrl(fillPath(list.path, found))}${query.size ? `?${query}` : ""}`,
          });
          const value = firstItem(response.body)?.[source.field];
          if (typeof value === "string") {
            found[name] = value;
            lookup = { state: "found", note: `Filled from ${list.method} ${list.path}.` };
          }
        } catch {}
        if (canceled) return;
        note(lookup);
        if (autoFilled.includes(name) && found[name]) {
          setValues((current) => (current[name] ? current : { ...current, [name]: found[name] }));
        }
      }
    })();
    return () => {
      canceled = true;
    };
  }, [session.status, autoFilled]);

  const url = fillPath(testPath, values);
  const missing = placeholders.filter((name) => !values[name]);
  const blockedBySignIn = needsToken && session.status !== "authenticated";

  const requestBody = async () => {
    if (testBody === null) return undefined;
    const json = fillJson(bodyText, values);
    return multipart ? formDataOf(JSON.parse(json), fileFields, files) : json;
  };

  /** Send: a changing operation first asks for a confirmation naming its target and the change. */
  const pressSend = async () => {
    if (safety.kind !== "change") return send();
    if (!target) {
      // No path parameter names the target: the request acts on the caller's own account (/api/users/me).
      const email = session.data?.user?.email;
      setChosen({
        id: "",
        label: `account${email ? ` “${email}”` : ""}, the one signed in here`,
        sandbox: false,
      });
    } else if (values[target] && chosen?.id !== values[target]) {
      setChosen(await describeTarget(safety.resource, values[target]));
    }
    setConfirming(true);
  };

  const send = async () => {
    setConfirming(false);
    setSending(true);
    setFailure(null);
    try {
      const checker = loadCheck();
      const response = await sendRequest({ method, url, body: await requestBody() });
      const check = (await checker)(cardId, response.status, response.body);
      setResult({ ...response, check });
    } catch (error) {
      setFailure(
        `The request did not complete: ${(error as Error).message}. Check that the backend is running.`,
      );
    } finally {
      setSending(false);
    }
  };

  const jobId =
    result && typeof (result.body as { jobId?: unknown } | null)?.jobId === "string"
      ? (result.body as { jobId: string }).jobId
      : null;

  return (
    <section
      id="try-it"
      data-testid="test-panel"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold">Try it</h2>
        <span className="text-xs text-slate-500">
          {needsToken
            ? session.status === "authenticated"
              ? "Sends your session's access token."
              : session.status === "loading"
                ? "Checking your session…"
                : "Needs you to sign in."
            : "Public operation: no token needed."}
        </span>
      </div>

      {blockedBySignIn && session.status === "unauthenticated" && (
        <div data-testid="sign-in-prompt" className="rounded-md bg-brand-50 px-4 py-3 text-sm text-slate-700">
          This operation needs an access token.{" "}
          <Link
            href={`/login?callbackUrl=${encodeURIComponent(`/api-docs/${cardId}`)}`}
            className="font-medium text-brand-600 hover:underline"
          >
            Sign in
          </Link>{" "}
          and the panel sends requests with your own session.
        </div>
      )}

      <div className="flex items-center gap-2 rounded-md bg-slate-50 px-3 py-2 font-mono text-sm">
        <span className="font-semibold">{method}</span>
        <span data-testid="request-url" data-field="testPath" className="break-all text-slate-700">
          {url}
        </span>
      </div>

      {placeholders.length > 0 && (
        <div className="grid gap-3">
          {placeholders.map((name) => (
            <label key={name} className="block text-sm">
              <span className="font-medium">{name}</span>
              <input
                data-testid={`param-${name}`}
                value={values[name] ?? ""}
                onChange={(event) => {
                  setValues((current) => ({ ...current, [name]: event.target.value }));
                  if (name === target) {
                    setChosen(null);
                    setConfirming(false);
                  }
                }}
                placeholder={
                  name === target
                    ? "Use a sandbox, or type an id"
                    : lookups[name]?.state === "looking"
                      ? "Looking it up…"
                      : `{${name}}`
                }
                className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 font-mono text-sm focus:border-brand-500 focus:outline-none"
              />
              {lookups[name]?.note && (
                <span className="mt-1 block text-xs text-slate-500">{lookups[name].note}</span>
              )}
              {name === target && chosen?.sandbox && chosen.id === values[name] && (
                <span data-testid="sandbox-target" className="mt-1 block text-xs text-amber-800">
                  Sandbox: {chosen.label}
                </span>
              )}
            </label>
          ))}
        </div>
      )}

      {multipart &&
        fileFields.map((name) => (
          <label key={name} className="block text-sm">
            <span className="font-medium">{name}</span> <span className="text-slate-500">(file)</span>
            <input
              type="file"
              data-testid={`file-${name}`}
              onChange={(event) => setFiles((current) => ({ ...current, [name]: event.target.files?.[0] }))}
              className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 hover:file:bg-slate-200"
            />
            {!files[name] && (
              <span className="mt-1 block text-xs text-slate-500">
                No file chosen: Send uploads a generated 512×512 PNG instead.
              </span>
            )}
          </label>
        ))}

      {testBody === null ? (
        <p data-field="testBody" className="text-xs text-slate-500">
          No request body ({method}).
        </p>
      ) : (
        <label data-field="testBody" className="block text-sm">
          <span className="font-medium">
            {multipart ? "Form fields (sent as multipart/form-data)" : "Body"}
          </span>
          <textarea
            data-testid="request-body"
            value={bodyText}
            onChange={(event) => setBodyText(event.target.value)}
            spellCheck={false}
            rows={Math.min(16, bodyText.split("\n").length + 1)}
            className="mt-1 w-full rounded-md border border-slate-300 p-3 font-mono text-[13px] focus:border-brand-500 focus:outline-none"
          />
          {bodyError && <span className="text-xs text-red-700">{bodyError}</span>}
        </label>
      )}

      <SafetyNote safety={safety} fill={(text) => fillJson(text, values)} />
      {safety.kind === "change" && (
        <SandboxButton
          safety={safety}
          disabled={blockedBySignIn || sending}
          onTarget={(made) => {
            setChosen(made);
            setConfirming(false);
            if (target) setValues((current) => ({ ...current, [target]: made.id }));
          }}
        />
      )}

      <div className="flex items-center gap-3">
        <button
          type="button"
          data-testid="send-button"
          onClick={pressSend}
          disabled={sending || blockedBySignIn || Boolean(bodyError)}
          className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {sending ? "Sending…" : "Send request"}
        </button>
        {missing.length > 0 && !blockedBySignIn && (
          <span className="text-xs text-slate-500">
            Still a placeholder: {missing.map((name) => `{${name}}`).join(", ")}
          </span>
        )}
      </div>

      {confirming && safety.kind === "change" && (
        <ConfirmChange
          safety={safety}
          method={method}
          url={url}
          target={target ? (values[target] ? chosen : null) : chosen}
          body={fillJson(bodyText, values)}
          onConfirm={send}
          onCancel={() => setConfirming(false)}
        />
      )}

      {failure && (
        <div className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200">
          {failure}{" "}
          <button type="button" onClick={send} className="font-medium underline">
            Retry
          </button>
        </div>
      )}

      {result ? (
        <div ref={resultBox} data-testid="test-result" className="scroll-mt-4 space-y-3">
          <div className="flex items-center gap-3 text-sm">
            <span
              data-testid="response-status"
              className={`rounded-md px-2 py-0.5 font-mono font-semibold text-white ${statusTone(result.status)}`}
            >
              {result.status}
            </span>
            <span data-testid="response-time" className="text-slate-600">
              {result.ms} ms
            </span>
          </div>
          <VerdictBanner check={result.check} />
          <JsonPane title="Response body" value={result.body ?? "(no body)"} testId="response-body" />
          {result.check.verdict === "not_implemented" && (
            <JsonPane
              title="What it will answer (the card's example)"
              value={mockOutput}
              testId="mock-output"
            />
          )}
          <details className="rounded-md border border-slate-200 text-sm">
            <summary className="cursor-pointer px-3 py-2 font-medium">
              Response headers ({result.headers.length})
            </summary>
            <table
              data-testid="response-headers"
              className="w-full border-t border-slate-200 font-mono text-xs"
            >
              <tbody>
                {result.headers.map(([name, value]) => (
                  <tr key={name} className="border-b border-slate-100 last:border-0">
                    <td className="px-3 py-1 align-top text-slate-500">{name}</td>
                    <td className="break-all px-3 py-1">{value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
          {jobId && <JobPoller key={jobId} jobId={jobId} />}
        </div>
      ) : (
        <div className="grid place-items-center rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-500">
          The real response appears here, checked against the contract.
        </div>
      )}
    </section>
  );
}

function JsonPane({ title, value, testId }: { title: string; value: unknown; testId: string }) {
  return (
    <div className="min-w-0 overflow-hidden rounded-lg bg-slate-900 text-slate-100">
      <div className="border-b border-slate-700 px-3 py-1.5 text-xs text-slate-400">{title}</div>
      <pre
        data-testid={testId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block takes keyboard focus so it can be scrolled without a mouse (axe: scrollable-region-focusable).
        tabIndex={0}
        className="max-h-96 overflow-auto whitespace-pre-wrap p-3 text-[12px] leading-relaxed [overflow-wrap:anywhere]"
      >
        {typeof value === "string" ? value : formatJson(value)}
      </pre>
    </div>
  );
}
