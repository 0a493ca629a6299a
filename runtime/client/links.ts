/**
 * Makes relative links absolute against the base URL, in place (the value is the client's own freshly parsed JSON).
 * Only the members the spec names as links are touched (`linkFields` of the data), and only values that are paths
 * of the same host (`/x`, not `//host/x`).
 */
export function absolutize(value: unknown, base: string, linkFields: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = absolutize(value[i], base, linkFields);
  } else if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const k in record) {
      const v = record[k];
      if (typeof v === "string") {
        if (linkFields.has(k) && v.charCodeAt(0) === 47 && v.charCodeAt(1) !== 47 && v.charCodeAt(1) !== 92) record[k] = base + v;
      } else if (v && typeof v === "object") absolutize(v, base, linkFields);
    }
  }
  return value;
}
