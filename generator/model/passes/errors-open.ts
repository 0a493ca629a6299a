import type { PassContext } from "./context.js";
import { gapKey } from "../fragments.js";
import type { Method } from "../types.js";

/** The errors stay open where the input lists an error without its code: the first such error says why. */
export function openByUncoded(errors: Method["errors"]): Method["errorsOpen"] {
  const uncoded = errors.find((e) => e.code === null);
  return uncoded ? { reason: `an error the spec lists without its code (${uncoded.text ?? uncoded.cause ?? "no text"})`, source: uncoded.source } : null;
}

/** Pass 8: the errors the input leaves open. */
export function openErrors(ctx: PassContext): void {
  const { methods, gaps } = ctx;
  // The gaps about a method's errors ("Error codes other than `X` for this method: not shown"; ctx.errorGaps).
  const aboutErrors = ctx.errorGaps;
  // Errors the spec leaves open: the method's error-code type stays open where the spec says more codes exist.
  for (const m of methods) {
    const key = `method:${m.version}:${m.name}`;
    const gap = gaps.find((g) => g.appliesTo.includes(key) && aboutErrors.has(gapKey(g)));
    const uncoded = openByUncoded(m.errors);
    if (gap) m.errorsOpen = { reason: `${gap.subject}: not shown`, source: gap.source };
    else if (uncoded) m.errorsOpen = uncoded;
    else if (!m.described) m.errorsOpen = { reason: "the spec only names the method", source: m.source };
  }
}
