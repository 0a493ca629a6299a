/** PHP-style query string of the legacy batch commands: `a[b]=1&c[]=2`, booleans as 1 and 0, null as empty. */
export function toQuery(params: Record<string, unknown> | null | undefined, prefix = ""): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown): void => {
    if (value === undefined) return;
    if (value === null) parts.push(`${encodeURIComponent(key)}=`);
    else if (Array.isArray(value)) value.forEach((v, i) => add(`${key}[${i}]`, v));
    else if (typeof value === "object") for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(typeof value === "boolean" ? (value ? "1" : "0") : String(value))}`);
  };
  for (const [k, v] of Object.entries(params ?? {})) add(prefix ? `${prefix}[${k}]` : k, v);
  return parts.join("&");
}
