/**
 * Event handlers: what the platform sends to a URL bound with `event.bind`, checked and parsed.
 *
 * The platform's reference (https://apidocs.bitrix24.com/api-reference/events/index.html) says the request is a POST
 * with content type `application/x-www-form-urlencoded` (`event=ONCRMDEALADD&data[FIELDS][ID]=6641&auth[...]=…`),
 * and (https://apidocs.bitrix24.com/api-reference/events/safe-event-handlers.html) that the handler must compare
 * `auth[application_token]` with the token the application was given at install before it trusts the request. So every leaf arrives as a string: `FormEncoded<T>`
 * is the documented payload with its scalars as the strings they are on the wire.
 *
 * The form parser is written here, not taken from `qs`: the runtime ships with no dependency, and the bracket syntax
 * it needs (PHP's, with bounded depth and key count) is a few dozen lines.
 */

import { readCapped } from "../shared/stream.js";

/** A documented payload as it arrives form-encoded: objects and arrays kept, every scalar a string. */
export type FormEncoded<T> = unknown extends T
  ? unknown
  : T extends undefined | null
    ? T
    : T extends readonly (infer I)[]
      ? FormEncoded<I>[]
      : T extends object
        ? { [K in keyof T]: FormEncoded<T[K]> }
        : string;

/** The members every event request carries, whatever the event. */
export interface EventRequest {
  /** The event's code, upper case as the platform sends it (`ONCRMDEALADD`). */
  event: string;
  event_handler_id?: string;
  data?: unknown;
  ts?: string;
  auth?: Record<string, unknown>;
}

export interface EventHandlerOptions<M> {
  /**
   * The application token the platform gave at install (`OnAppInstall`'s `auth[application_token]`), or a lookup
   * by the portal's `member_id` for an application installed on several portals. A request whose token differs is
   * refused with 401 and reaches no handler.
   */
  applicationToken: string | ((memberId: string | undefined) => string | undefined | Promise<string | undefined>);
  /** A handler per event code (`ONCRMDEALADD`); an event with none is acknowledged and ignored. */
  handlers: { [E in keyof M]?: (payload: FormEncoded<M[E]> & EventRequest) => unknown };
  /** The largest body read, in bytes (default 1 MiB): a larger one is refused with 413. */
  maxBodyBytes?: number;
}

const MAX_DEPTH = 16;
const MAX_KEYS = 10_000;

/**
 * An `application/x-www-form-urlencoded` body as nested objects, PHP's way: `a[b][c]=1` is `{a: {b: {c: "1"}}}`,
 * `a[]=x&a[]=y` is `["x", "y"]`, and an object whose keys are exactly 0 to n-1 is an array (whatever the pairs'
 * order; `a[0]=x&a[k]=y` keeps both, as an object). Keys past the 16th bracket and pairs past the 10,000th are not
 * read; `__proto__`, `constructor` and `prototype` are never keys. Linear in the body's length.
 */
export function parseFormBody(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  // Each container's next index, kept as keys are added: `a[]` takes it in constant time (counting the keys at each
  // `a[]` made 10,000 of them cost 0.6 s). As PHP takes it: one past the largest integer key so far, so that
  // `a[1]=x&a[]=y` keeps both (`y` at 2), where a count of keys gave 1 and wrote over `x`.
  const nextIndex = new WeakMap<object, number>();
  const put = (node: Record<string, unknown>, key: string, value: unknown) => {
    // Keys of up to 15 digits (a number past them loses its last digits; PHP's own limit is 19).
    if (/^(?:0|[1-9]\d{0,14})$/.test(key)) nextIndex.set(node, Math.max(nextIndex.get(node) ?? 0, Number(key) + 1));
    node[key] = value;
  };
  let pairs = 0;
  for (const part of body.split("&")) {
    if (!part) continue;
    if (++pairs > MAX_KEYS) break;
    const eq = part.indexOf("=");
    const rawKey = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? "" : decode(part.slice(eq + 1));
    const path = keyPath(rawKey);
    if (!path || path.some((k) => k === "__proto__" || k === "constructor" || k === "prototype")) continue;
    let node = root;
    for (let i = 0; i < path.length; i++) {
      // `a[]`: the next index of this container (one past its largest integer key so far).
      const key = path[i] === "" ? String(nextIndex.get(node) ?? 0) : (path[i] as string);
      if (i === path.length - 1) {
        put(node, key, value);
        break;
      }
      const next = node[key];
      if (next !== null && typeof next === "object") node = next as Record<string, unknown>;
      else {
        const child = Object.create(null) as Record<string, unknown>;
        put(node, key, child);
        node = child;
      }
    }
  }
  return arrays(root) as Record<string, unknown>;
}

/** Objects whose keys are exactly `0` … `n-1` as arrays, depth first. */
function arrays(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  for (const k of keys) o[k] = arrays(o[k]);
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => o[k]);
  return o;
}

/** `data[FIELDS][ID]` as `["data", "FIELDS", "ID"]`; null past the depth limit or for an unclosed bracket. */
function keyPath(key: string): string[] | null {
  const open = key.indexOf("[");
  if (open < 0) return [key];
  const path = [key.slice(0, open)];
  let i = open;
  while (i < key.length) {
    if (key[i] !== "[") return null;
    const close = key.indexOf("]", i);
    if (close < 0) return null;
    path.push(key.slice(i + 1, close));
    if (path.length > MAX_DEPTH) return null;
    i = close + 1;
  }
  return path;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

/** Whether two tokens are the same, in time that depends on neither: their SHA-256 digests compared byte by byte. */
export async function sameToken(a: string, b: string): Promise<boolean> {
  const encode = (s: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(s));
  const [x, y] = await Promise.all([encode(a), encode(b)]);
  const p = new Uint8Array(x);
  const q = new Uint8Array(y);
  let diff = 0;
  for (let i = 0; i < p.length; i++) diff |= (p[i] as number) ^ (q[i] as number);
  return diff === 0;
}

/**
 * Whether the token a request gives is the application's: `lookup` is the token, or a function of the portal's
 * `member_id` that finds it. Only a non-empty string the lookup gives is a token: a lookup in a plain object
 * (`(m) => tokens[m]`) answers `constructor` or `__proto__` with a function or an object, whose text a caller can send
 * (`function Object() { [native code] }`). What the lookup throws is thrown.
 */
export async function tokenMatches(
  lookup: string | ((memberId: string | undefined) => string | undefined | Promise<string | undefined>),
  memberId: string | undefined,
  given: string,
): Promise<boolean> {
  const expected: unknown = typeof lookup === "function" ? await lookup(memberId) : lookup;
  return typeof expected === "string" && expected !== "" && given !== "" && (await sameToken(given, expected));
}

const answer = (status: number, body: Record<string, unknown>) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * A web-standard handler, `(request: Request) => Promise<Response>`, for the URL bound with `event.bind`: it reads
 * the form body (bounded), checks `auth[application_token]` against `options.applicationToken`, and calls the
 * handler of the event's code with the parsed request. 200 once the handler returned (or when no handler is set: the
 * platform does not resend an acknowledged event), 401 for a wrong or missing token, 400 for a body that is no event
 * (or that could not be read), 405 for another method than POST, 413 for a body over the bound; a handler, or a
 * token lookup, that throws is a 500 with no detail.
 */
export function createEventHandler<M = Record<string, unknown>>(options: EventHandlerOptions<M>): (request: Request) => Promise<Response> {
  const max = options.maxBodyBytes ?? 1 << 20;
  return async (request) => {
    if (request.method !== "POST") return answer(405, { error: "METHOD_NOT_ALLOWED" });
    let text: string | null;
    try {
      // The router's reader: a declared or actual length past the bound is null, and the stream is cancelled.
      text = await readCapped(request.body, max, request.headers.get("content-length"));
    } catch {
      // The client went away, or the body was no stream of bytes.
      return answer(400, { error: "INVALID_BODY" });
    }
    if (text === null) return answer(413, { error: "PAYLOAD_TOO_LARGE" });
    // The platform sends events form-encoded, and only so (the documentation's JSON is an illustration of it).
    const body = parseFormBody(text);
    // The token before anything the body says: a caller without it learns nothing of what the handler takes.
    const auth = body["auth"] && typeof body["auth"] === "object" ? (body["auth"] as Record<string, unknown>) : {};
    const given = typeof auth["application_token"] === "string" ? auth["application_token"] : "";
    const memberId = typeof auth["member_id"] === "string" ? auth["member_id"] : undefined;
    let matches: boolean;
    try {
      matches = await tokenMatches(options.applicationToken, memberId, given);
    } catch {
      return answer(500, { error: "TOKEN_LOOKUP_FAILED" });
    }
    if (!matches) return answer(401, { error: "INVALID_APPLICATION_TOKEN" });
    if (typeof body["event"] !== "string" || !body["event"]) return answer(400, { error: "NOT_AN_EVENT" });
    const code = (body["event"] as string).toUpperCase();
    // The code in capitals names no member of Object.prototype; a handler an object inherits (a class's method) is found.
    const handler = (options.handlers as Record<string, ((payload: unknown) => unknown) | undefined>)[code];
    if (!handler) return answer(200, { event: code, handled: false });
    try {
      await handler({ ...body, event: code });
    } catch {
      return answer(500, { error: "HANDLER_FAILED" });
    }
    return answer(200, { event: code, handled: true });
  };
}

/** A UTF-16 surrogate without its pair (encodeURIComponent throws a URIError on it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A value as the platform's form body writes it (PHP's `http_build_query`): `{data: {FIELDS: {ID: 6641}}}` is
 * `data[FIELDS][ID]=6641`, an array's members are `a[0]`, `a[1]`, true is `1`, false `0`, and null or undefined
 * members are left out. The inverse of `parseFormBody` for the strings it gives; the mock sends events with it.
 * A body longer than `maxLength` characters, a string that is no Unicode text (a lone surrogate, which has no UTF-8
 * form) and a value that holds itself are each a RangeError.
 */
export function formEncode(value: Record<string, unknown>, maxLength = Number.POSITIVE_INFINITY): string {
  const pairs: string[] = [];
  let length = 0;
  const encode = (text: string) => {
    if (LONE_SURROGATE.test(text)) throw new RangeError("the event's data or name holds a lone surrogate, which has no UTF-8 form");
    return encodeURIComponent(text);
  };
  // Iterative, not recursive: a deep value costs no stack. Each name is encoded apart from the brackets between them.
  // An object's entry is followed on the stack by its exit (`open`, the objects on the path now): a value met again
  // on its own path holds itself, and would be written forever.
  const open = new Set<object>();
  const stack: Array<[string, unknown] | { leave: object }> = Object.entries(value).map(([k, v]) => [encode(k), v] as [string, unknown]).reverse();
  if (typeof value === "object" && value !== null) {
    open.add(value);
    stack.unshift({ leave: value });
  }
  while (stack.length > 0) {
    const item = stack.pop() as [string, unknown] | { leave: object };
    if (!Array.isArray(item)) {
      open.delete(item.leave);
      continue;
    }
    const [key, v] = item;
    if (v === null || v === undefined) continue;
    if (typeof v === "object") {
      if (open.has(v)) throw new RangeError("the event's data holds itself: it has no form body");
      open.add(v);
      stack.push({ leave: v });
      const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as [string, unknown]) : Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i] as [string, unknown];
        stack.push([`${key}[${encode(k)}]`, x]);
      }
      continue;
    }
    const pair = `${key}=${encode(typeof v === "boolean" ? (v ? "1" : "0") : String(v))}`;
    // Each key repeats its whole path: a deep value grows many times over; past `maxLength` the encoding stops.
    length += pair.length + 1;
    if (length > maxLength) throw new RangeError(`the form body passes ${maxLength} bytes: every key repeats its whole path`);
    pairs.push(pair);
  }
  return pairs.join("&");
}
