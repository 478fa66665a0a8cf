"use client";

import { useEffect, useRef, useState } from "react";
import { RESOURCE_NOUN, SANDBOX_CLEANUP, type TestSafety } from "@/lib/docs/test-safety";
import { makeSandbox, type Target } from "./sandbox";

type Change = Extract<TestSafety, { kind: "change" }>;

/** One line above Send that says what Send does to the user's data. */
export function SafetyNote({ safety, fill }: { safety: TestSafety; fill: (text: string) => string }) {
  if (safety.kind === "read") {
    return (
      <p data-testid="safety-note" data-safety="read" className="text-xs text-slate-500">
        Reads only: Send changes nothing.
      </p>
    );
  }
  if (safety.kind === "create") {
    return (
      <p
        data-testid="safety-note"
        data-safety="create"
        className="rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-900 ring-1 ring-sky-200"
      >
        <span className="font-medium">Send creates</span> {fill(safety.creates)}
      </p>
    );
  }
  if (!safety.param) {
    return (
      <p
        data-testid="safety-note"
        data-safety="change"
        className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
      >
        <span className="font-medium">This request changes your own account</span>, the one signed in here.
        Nothing is sent before you confirm.
      </p>
    );
  }
  const noun = safety.resource ? RESOURCE_NOUN[safety.resource] : "resource";
  return (
    <p
      data-testid="safety-note"
      data-safety="change"
      className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
    >
      <span className="font-medium">This request changes an existing {noun}.</span> The panel never picks one
      of yours:{" "}
      {safety.resource
        ? `use a sandbox ${noun} made for the test, or type an id.`
        : "type the id of the one to change."}{" "}
      Nothing is sent before you confirm.
    </p>
  );
}

/** The "use a sandbox" button for a changing operation. */
export function SandboxButton({
  safety,
  onTarget,
  disabled,
}: {
  safety: Change;
  onTarget: (target: Target) => void;
  disabled: boolean;
}) {
  const [making, setMaking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!safety.resource) return null;
  const resource = safety.resource;
  const make = async () => {
    setMaking(true);
    setError(null);
    try {
      onTarget(await makeSandbox(resource));
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setMaking(false);
    }
  };
  return (
    <div className="space-y-1">
      <button
        type="button"
        data-testid="use-sandbox"
        onClick={make}
        disabled={disabled || making}
        className="rounded-md border border-amber-300 bg-white px-3 py-1.5 text-sm font-medium text-amber-900 hover:bg-amber-50 disabled:opacity-50"
      >
        {making
          ? `Preparing a sandbox ${RESOURCE_NOUN[resource]}…`
          : `Use a sandbox ${RESOURCE_NOUN[resource]}`}
      </button>
      {error && <p className="text-xs text-red-700">{error}</p>}
    </div>
  );
}

/** Resolves what the request would change, naming it, and sends only on "Confirm". */
export function ConfirmChange({
  safety,
  method,
  url,
  target,
  body,
  onConfirm,
  onCancel,
}: {
  safety: Change;
  method: string;
  url: string;
  target: Target | null;
  /** The JSON body about to be sent: `{body.field}` in the change text names its value (the channel). */
  body?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  // A change with no path parameter acts on the caller's own account (DELETE /api/users/me).
  const noun = safety.resource ? RESOURCE_NOUN[safety.resource] : safety.param ? "resource" : "account";
  const change = safety.change.replace(/\{body\.(\w+)\}/g, (_, field: string) => {
    try {
      const value = (JSON.parse(body ?? "null") as Record<string, unknown> | null)?.[field];
      return typeof value === "string" && value ? `“${value}”` : `(no ${field} in the body)`;
    } catch {
      return `(no ${field} in the body)`;
    }
  });
  const box = useRef<HTMLDivElement>(null);
  // Brought into view, not focused: a second Enter on Send must never confirm by accident.
  // (In braces: Chromium's scrollIntoView may return a promise, which React would take for a cleanup.)
  useEffect(() => {
    box.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, []);
  return (
    <div
      ref={box}
      role="alertdialog"
      aria-labelledby="confirm-change-title"
      data-testid="confirm-change"
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <p id="confirm-change-title" className="font-semibold">
        Confirm the change
      </p>
      {target ? (
        <>
          <p data-testid="confirm-summary">
            <span className="font-mono">
              {method} {url}
            </span>{" "}
            {target.sandbox ? "changes the sandbox" : "changes your real"} {target.label}: {change}
          </p>
          {target.sandbox && safety.resource && <p className="text-xs">{SANDBOX_CLEANUP[safety.resource]}</p>}
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              data-testid="confirm-send"
              onClick={onConfirm}
              className="rounded-md bg-amber-600 px-3 py-1.5 font-medium text-white hover:bg-amber-700"
            >
              {target.sandbox ? `Change the sandbox ${noun}` : `Yes, change this ${noun}`}
            </button>
            <button
              type="button"
              data-testid="confirm-cancel"
              onClick={onCancel}
              className="rounded-md px-3 py-1.5 font-medium hover:bg-amber-100"
            >
              Cancel
            </button>
          </div>
        </>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <p data-testid="confirm-summary">
            No {noun} chosen yet.{" "}
            {safety.resource ? `Use a sandbox ${noun} or type an id above` : "Type its id above"}, then press
            Send again.
          </p>
          <button
            type="button"
            data-testid="confirm-cancel"
            onClick={onCancel}
            className="rounded-md px-3 py-1.5 font-medium hover:bg-amber-100"
          >
            Close
          </button>
        </div>
      )}
    </div>
  );
}
