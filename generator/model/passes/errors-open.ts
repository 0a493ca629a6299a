import type { PassContext } from "./context.js";

/** Pass 8: the errors the input leaves open. */
export function openErrors(ctx: PassContext): void {
  const { methods, gaps } = ctx;
  // Errors the spec leaves open: the method's error-code type stays open where the spec says more codes exist.
  for (const m of methods) {
    const key = `method:${m.version}:${m.name}`;
    const gap = gaps.find((g) => g.appliesTo.includes(key) && /\b(?:errors?|error codes?|code names?)\b/i.test(g.subject));
    const uncoded = m.errors.find((e) => e.code === null);
    if (gap) m.errorsOpen = { reason: `${gap.subject}: not shown`, source: gap.source };
    else if (uncoded) m.errorsOpen = { reason: `an error the spec lists without its code (${uncoded.text ?? uncoded.cause ?? "no text"})`, source: uncoded.source };
    else if (!m.described) m.errorsOpen = { reason: "the spec only names the method", source: m.source };
  }
}
