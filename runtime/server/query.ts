/**
 * PHP-style query strings, as legacy batch commands carry their parameters (`method?a[b]=1&c[]=2`). Written by hand:
 * URLSearchParams keeps `a[b]` as a flat key, and the nesting is PHP's own convention.
 */

const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"]);

/** PHP's own bounds (`max_input_vars`, `max_input_nesting_level`): a body cannot make the parse take longer. */
const MAX_PAIRS = 10_000;
const MAX_DEPTH = 64;

/**
 * The parameters of a query string or form body, nested by brackets; a key reaching an object's prototype is dropped.
 * Linear in the input: brackets are found with `indexOf`, never a pattern that rescans (a body of
 * `a[[[[…` took seconds with a regular expression, before authentication), and the pairs past PHP's bounds are
 * dropped as PHP drops them.
 *
 * Every bracketed container is read as a map first, as PHP's arrays are: `a[]=1&a[100000000]=2` is two entries,
 * never a JavaScript array of length 100,000,001 that later code walks index by index (8 s before
 * authentication). A map whose keys are exactly 0..n-1 becomes the list it stands for at the end, in one pass over
 * what exists.
 */
export function fromQuery(query: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // The next automatic index (`a[]=`) of each map: PHP's, one more than its greatest integer key.
  const nextIndex = new Map<object, number>();
  const containers = new Set<Record<string, unknown>>();
  let pairs = 0;
  for (let start = 0; start < query.length && pairs < MAX_PAIRS; ) {
    let end = query.indexOf("&", start);
    if (end < 0) end = query.length;
    const pair = query.slice(start, end);
    start = end + 1;
    if (pair === "") continue;
    pairs++;
    const eq = pair.indexOf("=");
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent((eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, " "));
      value = decodeURIComponent((eq < 0 ? "" : pair.slice(eq + 1)).replace(/\+/g, " "));
    } catch {
      continue;
    }
    const path = keyPath(key);
    if (path.some((p) => FORBIDDEN.has(p)) || path[0] === "") continue;
    let node: Record<string, unknown> = out;
    for (let i = 0; i < path.length; i++) {
      let seg = path[i] ?? "";
      if (node !== out) {
        if (seg === "") seg = String(nextIndex.get(node) ?? 0);
        if (INDEX.test(seg)) nextIndex.set(node, Math.max(nextIndex.get(node) ?? 0, Number(seg) + 1));
      }
      if (i === path.length - 1) {
        node[seg] = value;
        break;
      }
      let next = node[seg];
      if (next === null || typeof next !== "object") {
        next = {};
        node[seg] = next;
        containers.add(next as Record<string, unknown>);
      }
      node = next as Record<string, unknown>;
    }
  }
  return containers.size === 0 ? out : (asLists(out, 0) as Record<string, unknown>);
}

/** PHP's integer keys (no sign, no leading zero): the ones `a[]` counts from and a list is made of. */
const INDEX = /^(?:0|[1-9]\d{0,15})$/;

/** Each map whose keys are 0..n-1 as the list it stands for; the keys are read once each (linear). */
function asLists(node: Record<string, unknown>, depth: number): unknown {
  const keys = Object.keys(node);
  for (const k of keys) {
    const v = node[k];
    if (v !== null && typeof v === "object" && depth < MAX_DEPTH) node[k] = asLists(v as Record<string, unknown>, depth + 1);
  }
  if (depth === 0) return node;
  // Integer-like keys come first, in ascending order, so a dense map is 0..n-1 in its own key order.
  for (let i = 0; i < keys.length; i++) if (keys[i] !== String(i)) return node;
  return keys.map((k) => node[k]);
}

/** `a[b][]` → `["a", "b", ""]`: the name, then each bracket pair that follows it; an unclosed bracket ends the path. */
function keyPath(key: string): string[] {
  const open = key.indexOf("[");
  if (open < 0) return [key];
  const path = [key.slice(0, open)];
  let i = open;
  while (i < key.length && key[i] === "[" && path.length <= MAX_DEPTH) {
    const close = key.indexOf("]", i + 1);
    if (close < 0) break;
    path.push(key.slice(i + 1, close));
    i = close + 1;
  }
  return path;
}

// `[^[\]]` inside a bracket: a pattern that may not cross another `[` never rescans the text (linear time).
const REFERENCE = /\$result((?:\[[^[\]]*\])+)/g;
const WHOLE_REFERENCE = /^\$result((?:\[[^[\]]*\])+)$/;
/** References one command may hold; past it the rest stay as written (each takes an earlier result's size). */
export const MAX_REFERENCES = 100;

/**
 * What a command's references may still bring in: a count, and bytes (`sizes` gives each earlier command's answer
 * in bytes). A reference to a member that is an object or a list is charged its command's whole answer, an upper
 * bound known without walking the value (constant time a reference). `bytes` below 0 means the bound was crossed.
 */
export interface ReferenceBudget {
  left: number;
  bytes: number;
  sizes?: ReadonlyMap<string, number>;
}

/**
 * A legacy batch command's parameters with each reference to an earlier command's result in place: `$result[add]`,
 * `$result[list][0][ID]` (the documentation's batch page). A value that is one reference takes the referenced value
 * as it is (an object, a list); a reference inside a longer text is put in as text. A reference to a command that
 * has not run, or to a member its result lacks, is left as written, and validation names it. At most 100
 * references of a command are put in; the rest stay as written. Once the budget's bytes are spent no reference is
 * put in and `bytes` is left below 0, so the caller answers the command with an error.
 */
export function withReferences(value: unknown, results: Readonly<Record<string, unknown>>, budget: ReferenceBudget = { left: MAX_REFERENCES, bytes: Infinity }, depth = 0): unknown {
  if (depth > 64) return value;
  if (typeof value === "string") {
    if (!value.includes("$result[")) return value;
    const whole = WHOLE_REFERENCE.exec(value);
    if (whole) {
      const path = whole[1] ?? "";
      const found = budget.left > 0 && budget.bytes >= 0 ? lookUp(path, results) : { ok: false as const };
      if (!found.ok) return value;
      budget.left--;
      budget.bytes -= costOf(found.value, path, budget);
      if (budget.bytes < 0) return value;
      // A copy: a handler that changes its parameters must not change what the batch answers for the earlier command.
      return structuredClone(found.value);
    }
    return value.replace(REFERENCE, (text, path: string) => {
      if (budget.left <= 0 || budget.bytes < 0) return text;
      const found = lookUp(path, results);
      if (!found.ok || !(typeof found.value === "string" || typeof found.value === "number" || typeof found.value === "boolean")) return text;
      budget.left--;
      const put = String(found.value);
      budget.bytes -= put.length;
      return budget.bytes < 0 ? text : put;
    });
  }
  if (Array.isArray(value)) return value.map((v) => withReferences(v, results, budget, depth + 1));
  if (value && typeof value === "object") {
    // fromEntries defines own members: a `__proto__` key stays a member that the forbidden-key check then refuses.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withReferences(v, results, budget, depth + 1)]));
  }
  return value;
}

/** The bytes a referenced value brings: a scalar's own text, an object's or list's whole command answer (a bound). */
function costOf(value: unknown, path: string, budget: ReferenceBudget): number {
  if (value === null || typeof value !== "object") return String(value).length;
  const command = path.slice(1, path.indexOf("]"));
  const size = budget.sizes?.get(command);
  // Without the sizes (a caller of its own), the value is measured: still bounded by the budget's count.
  return size ?? (JSON.stringify(value)?.length ?? 0);
}

function lookUp(path: string, results: Readonly<Record<string, unknown>>): { ok: true; value: unknown } | { ok: false } {
  const keys = [...path.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? "");
  let node: unknown = results;
  for (const key of keys) {
    if (node === null || typeof node !== "object" || FORBIDDEN.has(key) || !Object.hasOwn(node, key)) return { ok: false };
    node = (node as Record<string, unknown>)[key];
  }
  return { ok: true, value: node };
}
