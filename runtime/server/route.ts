import type { Version } from "../shared/data.js";

/** The addressing forms of the spec: `/rest[/api][/{user_id}/{webhook_code}]/{method}`. */
export interface Route {
  version: Version;
  method: string;
  webhook: { userId: string; code: string } | null;
}

/** Parses a request path; null when it is none of the forms. Percent-escapes are decoded per segment. */
export function route(pathname: string): Route | null {
  let parts = pathname.split("/").filter((p) => p !== "");
  if (pathname.includes("%")) {
    parts = parts.map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  }
  if (parts[0] !== "rest") return null;
  let i = 1;
  let version: Version = "legacy";
  if (parts[1] === "api") {
    version = "v3";
    i = 2;
  }
  const rest = parts.slice(i);
  if (rest.length === 1) return { version, method: rest[0] ?? "", webhook: null };
  if (rest.length === 3) return { version, method: rest[2] ?? "", webhook: { userId: rest[0] ?? "", code: rest[1] ?? "" } };
  return null;
}

/**
 * A member of a table keyed by method name, own members only: `constructor`, `__proto__` or `toString` are method
 * names a client may send, not the table's prototype (they answered 500).
 */
export function own<T>(table: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return table && Object.hasOwn(table, name) ? table[name] : undefined;
}
