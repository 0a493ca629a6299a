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
