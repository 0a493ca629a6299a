/**
 * PHP-style query strings, as legacy batch commands carry their parameters (`method?a[b]=1&c[]=2`). Written by hand:
 * URLSearchParams keeps `a[b]` as a flat key, and the nesting is PHP's own convention.
 */

const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"]);

/** The parameters of a query string, nested by brackets; a key reaching an object's prototype is dropped. */
export function fromQuery(query: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? "" : pair.slice(eq + 1);
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, " "));
      value = decodeURIComponent(rawValue.replace(/\+/g, " "));
    } catch {
      continue;
    }
    const open = key.indexOf("[");
    const path = open < 0 ? [key] : [key.slice(0, open), ...[...key.slice(open).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? "")];
    if (path.some((p) => FORBIDDEN.has(p)) || path[0] === "") continue;
    let node: Record<string, unknown> | unknown[] = out;
    for (let i = 0; i < path.length; i++) {
      const last = i === path.length - 1;
      let seg = path[i] ?? "";
      if (Array.isArray(node) && seg === "") seg = String(node.length);
      else if (seg === "") seg = String(Object.keys(node).length);
      const container = node as Record<string, unknown>;
      if (last) {
        container[seg] = value;
        break;
      }
      const nextEmpty = path[i + 1] === "";
      let next = container[seg];
      if (next === null || typeof next !== "object") {
        next = nextEmpty ? [] : {};
        container[seg] = next;
      }
      node = next as Record<string, unknown> | unknown[];
    }
  }
  return out;
}

const REFERENCE = /\$result((?:\[[^\]]*\])+)/g;
const WHOLE_REFERENCE = /^\$result((?:\[[^\]]*\])+)$/;

/**
 * A legacy batch command's parameters with each reference to an earlier command's result in place: `$result[add]`,
 * `$result[list][0][ID]` (the documentation's batch page). A value that is one reference takes the referenced value
 * as it is (an object, a list); a reference inside a longer text is put in as text. A reference to a command that
 * has not run, or to a member its result lacks, is left as written, and validation names it.
 */
export function withReferences(value: unknown, results: Readonly<Record<string, unknown>>, depth = 0): unknown {
  if (depth > 64) return value;
  if (typeof value === "string") {
    if (!value.includes("$result[")) return value;
    const whole = WHOLE_REFERENCE.exec(value);
    if (whole) {
      const found = lookUp(whole[1] ?? "", results);
      return found.ok ? found.value : value;
    }
    return value.replace(REFERENCE, (text, path: string) => {
      const found = lookUp(path, results);
      return found.ok && (typeof found.value === "string" || typeof found.value === "number" || typeof found.value === "boolean") ? String(found.value) : text;
    });
  }
  if (Array.isArray(value)) return value.map((v) => withReferences(v, results, depth + 1));
  if (value && typeof value === "object") {
    // fromEntries defines own members: a `__proto__` key stays a member that the forbidden-key check then refuses.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withReferences(v, results, depth + 1)]));
  }
  return value;
}

function lookUp(path: string, results: Readonly<Record<string, unknown>>): { ok: true; value: unknown } | { ok: false } {
  const keys = [...path.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? "");
  let node: unknown = results;
  for (const key of keys) {
    if (node === null || typeof node !== "object" || FORBIDDEN.has(key) || !Object.hasOwn(node, key)) return { ok: false };
    node = (node as Record<string, unknown>)[key];
  }
  return { ok: true, value: node };
}
