import { APP_CONTEXT_CAUSE, type Fragments } from "../fragments.js";
import type { MethodError } from "../types.js";
import type { PassContext } from "./context.js";

/** Pass 7: statuses from the error catalogue for codes a method names without one (or with several). */
export function statusesFromCatalogue(ctx: PassContext): void {
  const { f, methods } = ctx;
  // Statuses from the error catalogue for codes a method names without one (or with several). The error an
  // "application context only (else `WRONG_AUTH_TYPE`)" sentence names is kept once when the errors list it too.
  for (const m of methods) {
    m.errors = m.errors
      .filter((e, i, all) => !(e.cause === APP_CONTEXT_CAUSE && all.some((o, j) => j !== i && o.code === e.code)))
      .map((e) => statusFromCatalogue(e, f));
  }
}

function statusFromCatalogue(e: MethodError, f: Fragments): MethodError {
  if (e.status !== null || !e.code) return e;
  const entries = f.catalogue.filter((c) => c.code === e.code);
  const candidates = entries.flatMap((c) => [c.status, c.altStatus]).filter((s): s is number => s !== null);
  const pick = e.statuses.length > 0 ? candidates.find((s) => e.statuses.includes(s)) : entries.find((c) => c.status !== null)?.status ?? undefined;
  if (pick === undefined || pick === null) return e;
  return { ...e, status: pick, statusFrom: "catalogue" };
}
