import type { ContractCheck } from "@/lib/docs/check-response";

/** A contract check as the panel shows it: PASS, the exact differences, or "not implemented yet". */
export function VerdictBanner({ check }: { check: ContractCheck | { verdict: "no_contract" } }) {
  if (check.verdict === "pass") {
    return (
      <div
        data-testid="contract-verdict"
        data-verdict="pass"
        className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ring-1 ring-emerald-200"
      >
        <span className="font-semibold">PASS</span> — the body matches {check.against}.
      </div>
    );
  }
  if (check.verdict === "fail") {
    return (
      <div
        data-testid="contract-verdict"
        data-verdict="fail"
        className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200"
      >
        <p>
          <span className="font-semibold">FAIL</span> — {check.differences.length}{" "}
          {check.differences.length === 1 ? "difference" : "differences"} from {check.against}:
        </p>
        <ul className="mt-1 space-y-0.5 font-mono text-xs">
          {check.differences.map((difference, index) => (
            <li key={index}>
              <span className="font-semibold">{difference.path}</span>: {difference.message}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (check.verdict === "not_implemented") {
    return (
      <div
        data-testid="contract-verdict"
        data-verdict="not_implemented"
        className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
      >
        <span className="font-semibold">Not implemented yet</span> — the backend has no route for this
        operation, so this is the real 404 of an unknown path. Compare it with the mock output.
      </div>
    );
  }
  return (
    <div
      data-testid="contract-verdict"
      data-verdict="no_contract"
      className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200"
    >
      <span className="font-semibold">No contract yet</span> — this operation is not in the registry, so the
      body cannot be checked. Compare it with the mock output.
    </div>
  );
}
