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
 * Linear in the input: brackets are found with `indexOf`, never a pattern that rescans (issue 14's review: a body of
 * `a[[[[…` took seconds with a regular expression, before authentication), and the pairs past PHP's bounds are
 * dropped as PHP drops them.
 */
export function fromQuery(query: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // The next automatic index (`a[]=`) of each object: PHP's, one more than its greatest integer key.
  const nextIndex = new Map<object, number>();
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
    let node: Record<string, unknown> | unknown[] = out;
    for (let i = 0; i < path.length; i++) {
      let seg = path[i] ?? "";
      if (seg === "") seg = String(Array.isArray(node) ? node.length : (nextIndex.get(node) ?? 0));
      if (!Array.isArray(node) && /^\d+$/.test(seg)) nextIndex.set(node, Math.max(nextIndex.get(node) ?? 0, Number(seg) + 1));
      const container = node as Record<string, unknown>;
      if (i === path.length - 1) {
        container[seg] = value;
        break;
      }
      let next = container[seg];
      if (next === null || typeof next !== "object") {
        next = path[i + 1] === "" ? [] : {};
        container[seg] = next;
      }
      node = next as Record<string, unknown> | unknown[];
    }
  }
  return out;
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
const MAX_REFERENCES = 100;

/**
 * A legacy batch command's parameters with each reference to an earlier command's result in place: `$result[add]`,
 * `$result[list][0][ID]` (the documentation's batch page). A value that is one reference takes the referenced value
 * as it is (an object, a list); a reference inside a longer text is put in as text. A reference to a command that
 * has not run, or to a member its result lacks, is left as written, and validation names it. At most 100
 * references of a command are put in; the rest stay as written.
 */
export function withReferences(value: unknown, results: Readonly<Record<string, unknown>>, budget = { left: MAX_REFERENCES }, depth = 0): unknown {
  if (depth > 64) return value;
  if (typeof value === "string") {
    if (!value.includes("$result[")) return value;
    const whole = WHOLE_REFERENCE.exec(value);
    if (whole) {
      const found = budget.left > 0 ? lookUp(whole[1] ?? "", results) : { ok: false as const };
      if (!found.ok) return value;
      budget.left--;
      // A copy: a handler that changes its parameters must not change what the batch answers for the earlier command.
      return structuredClone(found.value);
    }
    return value.replace(REFERENCE, (text, path: string) => {
      if (budget.left <= 0) return text;
      const found = lookUp(path, results);
      if (!found.ok || !(typeof found.value === "string" || typeof found.value === "number" || typeof found.value === "boolean")) return text;
      budget.left--;
      return String(found.value);
    });
  }
  if (Array.isArray(value)) return value.map((v) => withReferences(v, results, budget, depth + 1));
  if (value && typeof value === "object") {
    // fromEntries defines own members: a `__proto__` key stays a member that the forbidden-key check then refuses.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withReferences(v, results, budget, depth + 1)]));
  }
  return value;
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
