import { skeletonMethodNames } from "../model/questions.js";
import { view } from "../model/view.js";
import type { Model } from "../model/types.js";
import { ordinal } from "../util/order.js";

/**
 * The user-owned handler skeleton after it was first written (decisions.md D1): the drift check here, and the merge
 * that brings it up to the spec (merge.ts). A room of its own that the CLI imports; the server emitter only renders
 * the first seed.
 */

/** Where the skeleton seed goes in the output folder unless the config names another path. */
export const SKELETON_PATH = "server/skeleton/handlers.ts";

/**
 * Methods a user-owned skeleton handles (its keys), against the spec's described methods, for each handlers object
 * (the text from `export const v3` on is the 3.0 object): a cheap look that decides whether the skeleton merge
 * (merge.ts, which reads the syntax tree) has anything to do.
 */
export function skeletonDrift(model: Model, text: string): { added: string[]; removed: string[] } {
  const expected = skeletonMethodNames(view(model));
  // A quoted key anywhere, or a bare one at the entries' indent that holds a function: the skeleton writes a method
  // whose name is an identifier (`profile`) without quotes, as prettier does. Other bare keys of the user's own code
  // (an interface member, a helper object) are not methods.
  const keys = (t: string) =>
    new Set([
      ...[...t.matchAll(/^\s*["']([A-Za-z_][\w.]*)["']\s*:/gm)].map((m) => m[1] ?? ""),
      ...[...t.matchAll(/^[ \t]+([A-Za-z_$][\w$]*)\s*:\s*(?:async\b|function\b|\()/gm)].map((m) => m[1] ?? ""),
    ]);
  const cut = text.search(/export\s+const\s+v3\b/);
  const parts = { legacy: keys(cut < 0 ? text : text.slice(0, cut)), v3: keys(cut < 0 ? text : text.slice(cut)) };
  const added = new Set<string>();
  for (const v of ["legacy", "v3"] as const) for (const n of expected[v]) if (!parts[v].has(n)) added.add(n);
  const all = new Set([...expected.legacy, ...expected.v3]);
  const removed = new Set([...parts.legacy, ...parts.v3].filter((n) => !all.has(n)));
  return { added: [...added].sort(ordinal), removed: [...removed].sort(ordinal) };
}
