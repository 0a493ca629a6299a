import type { Prose } from "../model/view.js";

/**
 * The one way from the input's prose to a string (issue 27): for the printers that carry the words into a generated
 * file as they are (a JSDoc or OpenAPI description, a quoted error text the server answers with, a README line).
 * An emitter hands prose on and decides nothing by it; `test/integration/layering.test.ts` lists the files that may
 * import this, and no other file of `emit/` does.
 */
export function words(p: Prose | string): string;
export function words(p: Prose | string | null): string | null;
export function words(p: Prose | string | null | undefined): string | null | undefined;
export function words(p: Prose | string | null | undefined): string | null | undefined {
  return p as unknown as string | null | undefined;
}

/** Prose (or a generator's own text) as one sentence of a comment or a description: trimmed, with a full stop. */
export function sentence(p: Prose | string): string {
  const t = words(p).trim();
  return /[.!?)`]$/.test(t) ? t : `${t}.`;
}
