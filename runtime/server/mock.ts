import type { ServerData, Version } from "../shared/data.js";
import { type BuiltInSpec, type Caller, type Credentials, type HandlerContext, type HandlerOptions, MethodError, createRuntimeHandler } from "./handler.js";
import { page, pageOf, withoutCount } from "./page.js";
import { formEncode } from "./events.js";
import { JSON_HEADERS, type Out } from "./envelope.js";
import { CORE, type Core, type RouterInput } from "./node.js";
import { readCapped } from "../shared/stream.js";
import { REDACTED, oneLine } from "../shared/redact.js";

/**
 * The mock: the generated router with a default handler for every method the spec describes, so that a
 * program can run against the whole API with no handler code. Answers are made from the generated OpenAPI schemas
 * of each method's `result` (every member with a value of its type, stable for the same request), list methods hold
 * records and page, filter, order and select them as the platform does, and the rows of the spec's States table
 * that the generator recognised (`states` of `mock.js`) are behaviour. Everything else is the router's: addressing,
 * authentication, scopes, validation, errors, batch, idempotency, limits.
 */

/** The subset of OpenAPI 3.0 schemas the generator emits (emit/openapi/schema.ts). */
export interface Schema {
  $ref?: string;
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  maxProperties?: number;
  default?: unknown;
}

/** The names of the offline queue: the batch's parameter, its answer's members, a record's members. */
export interface OfflineNames {
  id: string;
  messages: string;
  answer: { id: string; events: string };
  record: { id: string; message: string };
}

/** A behaviour of the States table, as the generator read it. */
export type MockState =
  | { kind: "set"; method: string; key: string[]; member: string | null; field: string; value: unknown }
  | { kind: "link"; method: string; param: string; on: unknown; off: unknown; byDefault: unknown; field: string; key: string | null }
  | { kind: "store"; method: string; collection: string; key: string }
  | {
      kind: "require";
      method: string;
      collection: string;
      key: string;
      error: { code: string; text: string; status: number };
      replaces: boolean;
      /** Which option of the result answers: `option` when `given` is sent and none of `absent`, else `otherwise`. */
      choice: { given: string; absent: string[]; option: number; otherwise: number } | null;
    }
  | ({ kind: "offline-reserve"; method: string; param: string; value: unknown; limit: string; failed: string } & OfflineNames)
  | ({ kind: "offline-clear"; method: string; records: string | null } & OfflineNames)
  | ({ kind: "offline-error"; method: string } & OfflineNames)
  | {
      kind: "unique-binding";
      method: string;
      unbind: string | null;
      list: string | null;
      error: { code: string; text: string; status: number };
      /** The bind's parameters: event, handler, user, and the event type with its values. */
      params: { event: string; handler: string; authType: string; eventType: string; online: string; offline: string };
    }
  | { kind: "hidden-until-installed"; method: string; list: string }
  | { kind: "router" };

export interface MockMethod {
  /** The OpenAPI schema of the envelope's `result`. */
  result: Schema;
  /** A legacy list method: the member that identifies a record (the `>ID` cursor's), if its records have one. */
  list?: {
    id: string | null;
    /** The names of the method's filter, order and select parameters, where the spec gives it them. */
    filter: string | null;
    order: string | null;
    select: string | null;
  };
  /** The result is the calling user (`user.current`): the kept user whose id is the caller's. */
  caller?: true;
}

/** The generated `mock.js`. */
export interface MockData {
  legacy: Record<string, MockMethod>;
  v3: Record<string, MockMethod>;
  schemas: Record<string, Schema>;
  states: MockState[];
  /** The platform's page size. */
  pageSize: number;
  /** The code of a token the mock does not know (the authorization failures table's). */
  invalidToken: string;
  /**
   * The events the platform's reference types (its event pages), by the code the handler receives: the schema of
   * the payload's `data` and the event's scopes. Absent when the input has no event pages (the shipped spec).
   */
  events?: Record<string, { data: Schema | null; scopes: string[] | null }>;
}

/** A seed file (`--seed`, JSON or YAML; its JSON Schema is `seed.schema.json` of this package). */
export interface MockSeed {
  /** Users; `admin` defaults to false. Without users, any user id is an administrator. */
  users?: Array<{ id: number; admin?: boolean }>;
  /** Webhooks: a user id, a code and the webhook's scopes. Without webhooks and tokens, any credentials are accepted. */
  webhooks?: Array<{ userId: number; code: string; scopes: string[] }>;
  /** Application tokens. */
  tokens?: Array<{ token: string; userId: number; scopes: string[]; applicationId?: string }>;
  /** Records by list method name (`sale.paysystem.list`) or by the resource its records are (`PaySystem`). */
  records?: Record<string, Array<Record<string, unknown>>>;
  /** The offline event queue (`event.offline.get`), in order. */
  offlineEvents?: Array<Record<string, unknown>>;
  /** Whether the application's installation is finished (widgets of an unfinished one are hidden). Default true. */
  installed?: boolean;
  /** The application token events carry in `auth[application_token]` (what a handler checks). Default `mock-application-token`. */
  applicationToken?: string;
}

/**
 * Delivering events to bound handlers (`deliverEvent`, or `POST /_mock/events`): only when asked, only to handlers on
 * loopback or on hosts named here, with a timeout, no redirects followed and the handler's answer read up to a bound.
 */
export interface MockEventOptions {
  /** Host names beyond loopback (127.0.0.0/8, ::1, localhost) that events may be delivered to. Default none. */
  hosts?: string[];
  /** How long one delivery waits for the handler's answer, in milliseconds. Default 5,000. */
  timeoutMs?: number;
  /** The most of a handler's answer that is read, in bytes; a longer one is cut off. Default 64 KiB. */
  maxAnswerBytes?: number;
}

/** One binding's delivery: its handler (origin and path: a query may carry a token), and what came of it. */
export interface EventDelivery {
  /** The binding's `event_handler_id`. */
  id: number;
  handler: string;
  /** The handler's HTTP status; absent when no answer came. */
  status?: number;
  /** Why it was not delivered, or why the delivery failed; absent for an answer 2xx. */
  problem?: string;
}

/** What `deliverEvent` did: every binding of the event, delivered or not. */
export interface EventDeliveryReport {
  event: string;
  delivered: EventDelivery[];
  /** Bindings kept but not delivered to: another host than loopback or the named ones, an offline binding. */
  skipped: EventDelivery[];
}

/** The mock's handler, and the call that delivers an event to the handlers bound to it. */
export interface MockHandler {
  (request: Request): Promise<Response>;
  /** The router's core, for the node adapter's fast path (the same answers as the handler, without a Request). */
  [CORE]: Core;
  /**
   * Delivers `event` (any case: `onCrmDealAdd`) to every online handler bound to it, as the platform does: a
   * form-encoded POST with `event`, `event_handler_id`, `data`, `ts` and `auth` (no access or refresh token: the
   * reference says they are not always passed). `data` defaults to a value of the event's documented payload, when
   * the input types it. `origin` is the mock's own (what `auth[domain]` and `auth[client_endpoint]` name).
   */
  deliverEvent(event: string, data?: unknown, options?: { applicationId?: string; origin?: string }): Promise<EventDeliveryReport>;
}

/** The path of the mock's control endpoint that delivers an event (JSON body `{event, data?, applicationId?}`). */
export const EVENTS_CONTROL_PATH = "/_mock/events";

export interface MockOptions extends Partial<Omit<HandlerOptions, "authenticate">> {
  /** Records each list method holds when the seed gives none. Default three pages (150). */
  records?: number;
  seed?: MockSeed;
  /** Serve plain HTTP (local development only: the platform refuses HTTP). */
  allowHttp?: boolean;
  /** Delivering events to bound handlers: where to, how long, how much. */
  events?: MockEventOptions;
}

/** A small deterministic generator (mulberry32), seeded by a string: the same request gets the same answer. */
function randomOf(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EPOCH = Date.UTC(2026, 0, 1);

/**
 * A value of a schema. Written by hand rather than with a JSON Schema faker: the generated server package has no
 * dependency, and the generator emits a dozen schema constructs whose values this covers exactly (the mock's test
 * validates every answer against the documents with ajv).
 */
export function sample(schema: Schema, schemas: Record<string, Schema>, random: () => number, name = "", depth = 0): unknown {
  if (schema.$ref) return sample(schemas[schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1)] ?? {}, schemas, random, name, depth);
  if (schema.allOf) {
    const parts = schema.allOf.map((s) => sample(s, schemas, random, name, depth));
    return parts.every((p) => typeof p === "object" && p !== null && !Array.isArray(p)) ? Object.assign({}, ...parts) : parts[0];
  }
  // Options that only constrain (`anyOf` of `required` lists: "at least one of", call forms) beside the members are
  // met by giving every member; options that are types are a choice.
  const options = (schema.oneOf ?? schema.anyOf)?.filter((o) => o.type || o.$ref || o.properties || o.enum || o.allOf);
  if (options && options.length > 0) return sample(options[0] as Schema, schemas, random, name, depth);
  // The spec's own value where it gives one: the default (the model holds no other published examples).
  if (schema.default !== undefined) return schema.default;
  if (schema.enum && schema.enum.length > 0) return schema.enum[Math.floor(random() * schema.enum.length)];
  const int = (lo = 1, hi = 1000) => {
    const min = Math.max(lo, schema.minimum ?? lo);
    const max = Math.min(hi, schema.maximum ?? hi);
    return max < min ? min : min + Math.floor(random() * (max - min + 1));
  };
  switch (schema.type) {
    case "boolean":
      return random() < 0.5;
    case "integer":
      return int();
    case "number":
      return int() + Math.round(random() * 100) / 100;
    case "string": {
      if (schema.format === "date-time") return new Date(EPOCH + int(0, 365) * 86_400_000 + int(0, 86_399) * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
      if (schema.format === "uri") return `https://mock.example/${encodeURIComponent(name || "link")}/${int()}`;
      if (schema.format === "byte") return "bW9jaw==";
      // The patterns the generator writes: digits (a decimal string), and a code of letters, digits and `_`.
      if (schema.pattern?.includes("[0-9]+") || /(^|_)ID$|Id$/.test(name)) return String(int());
      if (schema.pattern) return `${(name || "code").replace(/\W/g, "_")}_${int()}`;
      return `${name || "text"} ${int()}`;
    }
    case "array": {
      if (depth > 6) return [];
      const count = Math.min(schema.maxItems ?? 2, 1 + Math.floor(random() * 2));
      return Array.from({ length: count }, () => sample(schema.items ?? {}, schemas, random, name, depth + 1));
    }
    case "object":
    default: {
      // A value the spec does not show the type of (`{}`): null, nothing invented.
      if (schema.type === undefined && !schema.properties && !schema.additionalProperties) return null;
      const out: Record<string, unknown> = {};
      if (depth > 6 || schema.maxProperties === 0) return out;
      for (const [key, s] of Object.entries(schema.properties ?? {})) put(out, key, sample(s, schemas, random, key, depth + 1));
      if (!schema.properties && typeof schema.additionalProperties === "object") out["1"] = sample(schema.additionalProperties, schemas, random, name, depth + 1);
      return out;
    }
  }
}

/** The schema a `$ref` names, or the schema itself. */
function resolve(schema: Schema, schemas: Record<string, Schema>): Schema {
  let s = schema;
  for (let i = 0; i < 10 && s.$ref; i++) s = schemas[s.$ref.slice(s.$ref.lastIndexOf("/") + 1)] ?? {};
  return s;
}

/** The resource a schema is: its `$ref`, or the `$ref` that an `allOf` extends (null when it is neither). */
function baseRef(schema: Schema): Schema | null {
  if (schema.$ref) return schema;
  const first = schema.allOf?.find((s) => s.$ref !== undefined);
  return first ?? null;
}

/** An identifier of the type the schema gives it: a decimal string or a number. */
function idValue(schema: Schema | undefined, schemas: Record<string, Schema>, n: number): unknown {
  const s = schema ? resolve(schema, schemas) : {};
  return s.type === "integer" || s.type === "number" ? n : String(n);
}

/**
 * Sets an identifier member from a request's value when the value fits the member's type (`7` or `"7"` for an
 * integer, any for a string); the parameter's own name, else `id`/`ID`. A value that does not fit is not echoed.
 */
function echo(o: Record<string, unknown>, props: Record<string, Schema>, schemas: Record<string, Schema>, param: string, value: unknown): void {
  // The parameter's own member, else, for an identifier parameter (`attachId`, `taskId`, `id`), the object's `id`.
  const member = Object.hasOwn(props, param) ? param : /id$/i.test(param) ? ["id", "ID"].find((m) => Object.hasOwn(props, m)) : undefined;
  if (!member || typeof o !== "object" || o === null) return;
  const s = resolve(props[member] ?? {}, schemas);
  const v = s.type === "integer" || s.type === "number" ? (/^-?\d+$/.test(textOf(value)) ? Number(value) : undefined) : s.type === "string" ? textOf(value) : undefined;
  // Only a value the member's schema takes: its type, its pattern, its allowed values.
  if (v === undefined) return;
  if (typeof v === "string" && s.pattern && !new RegExp(s.pattern).test(v)) return;
  if (s.enum && !s.enum.includes(v)) return;
  put(o, member, v);
}

/** The key prefixes of a list filter, longest first (the spec's list of `FILTER` prefixes). */
const PREFIXES = [">=", "<=", "!@", "=%", "%=", "!%", "!=%", "!%=", "!=", ">", "<", "@", "%", "=", "!"].sort((a, b) => b.length - a.length);

const NUMBER = /^-?\d+(\.\d+)?$/;

/** Numbers as numbers (a decimal string too), anything else by code units: the same order on every machine. */
function compare(a: unknown, b: unknown): number {
  const x = textOf(a ?? "");
  const y = textOf(b ?? "");
  if (NUMBER.test(x) && NUMBER.test(y)) return Number(x) - Number(y);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Whether a value matches a filter's pattern, `%` standing for any text (case aside). By hand, not as a regular
 * expression: `.*` per `%` backtracked in time exponential in the `%`s (nine took 22 s, the whole mock blocked), and
 * a long pattern overflowed the expression's size. The text between the `%`s is found left to right, each part at
 * its first place after the one before: a part found later would leave less room for the rest, never more.
 */
function like(value: unknown, pattern: string): boolean {
  const text = textOf(value ?? "").toLowerCase();
  const parts = pattern.toLowerCase().split("%");
  if (parts.length === 1) return text === parts[0];
  const first = parts[0] ?? "";
  const last = parts[parts.length - 1] ?? "";
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i] ?? "";
    if (part === "") continue;
    const found = text.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/**
 * Sets a member named by the spec's schema (`o[key] = value`), a member named `__proto__` too: assigned, it set the
 * object's prototype, and the member was not there.
 */
function put(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value;
}

/**
 * A value as text, as `String` gives it, and "" where `String` throws: a request's JSON can hold an object whose own
 * `toString` is no function (`{"toString": 1}`), which made a filter, an order or a parameter a 500.
 */
function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "";
  }
}

/** A value as a number, as `Number` gives it, and NaN where `Number` throws (`{"toString": 1}`, a parameter of no type). */
function numberOf(value: unknown): number {
  try {
    return Number(value);
  } catch {
    return Number.NaN;
  }
}

/** Whether a record matches one filter entry: the key's prefix is the operation (the spec's list). */
function matches(record: Record<string, unknown>, key: string, expected: unknown): boolean {
  const prefix = PREFIXES.find((p) => key.startsWith(p) && key.length > p.length) ?? "";
  const field = key.slice(prefix.length);
  const value = Object.hasOwn(record, field) ? record[field] : undefined;
  const list = Array.isArray(expected) ? expected : [expected];
  switch (prefix) {
    case ">=":
      return compare(value, expected) >= 0;
    case ">":
      return compare(value, expected) > 0;
    case "<=":
      return compare(value, expected) <= 0;
    case "<":
      return compare(value, expected) < 0;
    case "@":
      return list.some((e) => compare(value, e) === 0);
    case "!@":
      return !list.some((e) => compare(value, e) === 0);
    case "%":
      return textOf(value ?? "").toLowerCase().includes(textOf(expected).toLowerCase());
    case "!%":
      return !textOf(value ?? "").toLowerCase().includes(textOf(expected).toLowerCase());
    case "=%":
    case "%=":
      return like(value, textOf(expected));
    case "!=%":
    case "!%=":
      return !like(value, textOf(expected));
    case "!=":
    case "!":
      return Array.isArray(expected) ? !list.some((e) => compare(value, e) === 0) : compare(value, expected) !== 0;
    default:
      return Array.isArray(expected) ? list.some((e) => compare(value, e) === 0) : compare(value, expected) === 0;
  }
}

/** The filter, order and select of a list request, under the names the method's parameters have. */
function listParams(params: Record<string, unknown>, names: NonNullable<MockMethod["list"]>): { filter: Record<string, unknown>; order: Record<string, unknown>; select: string[] } {
  const object = (v: unknown) => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const select = names.select ? params[names.select] : undefined;
  return {
    filter: names.filter ? object(params[names.filter]) : {},
    order: names.order ? object(params[names.order]) : {},
    select: Array.isArray(select) ? select.map((v) => textOf(v)) : [],
  };
}

interface Binding {
  /** Its `event_handler_id`: the order of binding, from 1. */
  id: number;
  event: string;
  handler: unknown;
  authType: number;
  type: string;
  /** The application that bound it. */
  owner: string;
}

interface Store {
  records: Map<string, Array<Record<string, unknown>>>;
  objects: Map<string, Record<string, unknown>>;
  collections: Map<string, Map<string, Record<string, unknown>>>;
  bindings: Binding[];
  bound: number;
  offline: Array<{ event: Record<string, unknown>; process: string | null; failed: boolean }>;
  placements: Array<{ handler: Record<string, unknown>; hidden: boolean }>;
  processes: number;
}

/**
 * The mock: the generated router with default handlers for every described method. `data` is `methods.js`, `mock`
 * is `mock.js`; the rest is `createHandlerWith`'s.
 */
export function createMockWith(
  options: MockOptions,
  data: ServerData,
  mock: MockData,
  builtIn: BuiltInSpec,
  documents: { openapiV3: unknown },
): MockHandler {
  const seed = options.seed ?? {};
  const perList = options.records ?? mock.pageSize * 3;
  const store: Store = { records: new Map(), objects: new Map(), collections: new Map(), bindings: [], bound: 0, offline: [], placements: [], processes: 0 };
  // A seeded event without an identifier gets its position in the queue.
  const offlineId = mock.states.find((x): x is Extract<MockState, { kind: "offline-reserve" }> => x.kind === "offline-reserve")?.record.id ?? "ID";
  for (const [i, event] of (seed.offlineEvents ?? []).entries()) store.offline.push({ event: { [offlineId]: String(i + 1), ...event }, process: null, failed: false });
  const installed = seed.installed ?? true;
  const hosts = new Set(
    (options.events?.hosts ?? []).map((h) => {
      const n = normalHost(h);
      // A port, a path or credentials make it no host name: said, not dropped.
      if (n === null || /[/@]/.test(h) || (h.includes(":") && !/^\[?[0-9a-f:.]+\]?$/i.test(h))) throw new TypeError(`events.hosts takes host names or addresses, not ${JSON.stringify(h)}`);
      return n;
    }),
  );
  /** The event type of a binding that is delivered to (the bind's `online` value); null when bindings are not kept. */
  let online: string | null = null;

  /** The records of a list method: the seed's (by method or by resource), else made from the item schema. */
  const recordsOf = (name: string, info: MockMethod): Array<Record<string, unknown>> => {
    const known = store.records.get(name);
    if (known) return known;
    const item = info.result.items ?? {};
    const resource = item.$ref?.slice(item.$ref.lastIndexOf("/") + 1);
    const seeded = seed.records?.[name] ?? (resource ? seed.records?.[resource] : undefined);
    const idSchema = info.list?.id ? resolve(item, mock.schemas).properties?.[info.list.id] : undefined;
    const made =
      seeded?.map((r) => ({ ...r })) ??
      Array.from({ length: perList }, (_, i) => {
        const record = sample(item, mock.schemas, randomOf(`${name}#${i}`)) as Record<string, unknown>;
        if (info.list?.id) put(record, info.list.id, idValue(idSchema, mock.schemas, i + 1));
        return record;
      });
    store.records.set(name, made);
    return made;
  };

  /** A legacy list page: filtered, ordered, selected, cut at `start` (none with `start = -1`, as the platform). */
  const listAnswer = (name: string, info: MockMethod, params: Record<string, unknown>) => {
    const { filter, order, select } = listParams(params, info.list ?? { id: null, filter: null, order: null, select: null });
    let rows = recordsOf(name, info).filter((r) => Object.entries(filter).every(([k, v]) => matches(r, k, v)));
    const keys = Object.entries(order);
    if (keys.length > 0) {
      rows = [...rows].sort((a, b) => {
        for (const [field, dir] of keys) {
          const c = compare(a[field], b[field]);
          if (c !== 0) return textOf(dir).toUpperCase() === "DESC" ? -c : c;
        }
        return 0;
      });
    }
    const pick = select.filter((f) => f !== "*");
    const project = (r: Record<string, unknown>) => (pick.length === 0 ? r : Object.fromEntries(pick.filter((f) => Object.hasOwn(r, f)).map((f) => [f, r[f]])));
    if (withoutCount(params)) return page(rows.slice(0, mock.pageSize).map(project));
    const p = pageOf(rows, params.start, mock.pageSize);
    return page(p.items.map(project), { ...(p.total === undefined ? {} : { total: p.total }), ...(p.next === undefined ? {} : { next: p.next }) });
  };

  /**
   * An object a method reads or changes, kept by its resource and key (`Task:7`), made once from its schema: what
   * `tasks.task.unpin` changes, `tasks.task.get` of the same task then answers. `init` sets its identifiers.
   */
  /**
   * An object a method reads or changes, by its resource and key (`Task:7`), made from its schema: what
   * `tasks.task.unpin` changed, `tasks.task.get` of the same task then answers. Only a change keeps an object
   * (`keep`): reading a million ids keeps nothing. `init` sets its identifiers.
   */
  const kept = (schema: Schema, key: string, init: (o: Record<string, unknown>, props: Record<string, Schema>) => void, keep: boolean) => {
    const resource = schema.$ref ? schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1) : "object";
    const id = `${resource}:${key}`;
    let o = store.objects.get(id);
    if (!o) {
      o = (sample(schema, mock.schemas, randomOf(id)) ?? {}) as Record<string, unknown>;
      init(o, resolve(schema, mock.schemas).properties ?? {});
      if (keep) store.objects.set(id, o);
    }
    return o;
  };
  const collection = (name: string) => {
    let c = store.collections.get(name);
    if (!c) store.collections.set(name, (c = new Map()));
    return c;
  };
  const fail = (e: { code: string; text: string; status: number }) => new MethodError({ code: e.code, description: e.text, status: e.status });

  type Handler = (params: Record<string, unknown>, context: HandlerContext) => unknown;
  const stateful = new Map<string, Handler>();
  const states = mock.states;
  for (const s of states) {
    switch (s.kind) {
      case "set":
        stateful.set(s.method, (params) => {
          const info = mock.legacy[s.method];
          const schema = info ? resolve(info.result, mock.schemas) : {};
          const target = s.member ? (schema.properties?.[s.member] ?? {}) : schema;
          const given = s.key.filter((k) => params[k] !== undefined && params[k] !== "");
          const o = kept(
            target,
            given.map((k) => textOf(params[k])).join("/"),
            (obj, props) => {
              // The object is the one the key names: `id` 7 unpins task 7.
              for (const k of given) echo(obj, props, mock.schemas, k, params[k]);
            },
            true,
          );
          put(o, s.field, s.value);
          return s.member ? { [s.member]: o } : o;
        });
        break;
      case "link":
        stateful.set(s.method, (params) => {
          const value = params[s.param] ?? s.byDefault;
          const on = textOf(value) === textOf(s.on);
          return { [s.field]: on ? `https://mock.example/public/${encodeURIComponent(textOf((s.key && params[s.key]) ?? ""))}` : null };
        });
        break;
      case "store":
        stateful.set(s.method, (params) => {
          const info = mock.legacy[s.method];
          const record = sample(info?.result ?? {}, mock.schemas, randomOf(`${s.method}:${textOf(params[s.key])}`)) as Record<string, unknown>;
          if (typeof record === "object" && record !== null && s.key in record) put(record, s.key, params[s.key]);
          collection(s.collection).set(textOf(params[s.key]), { ...record });
          return record;
        });
        break;
      case "require":
        stateful.set(s.method, (params) => {
          const stored = collection(s.collection).get(textOf(params[s.key]));
          if (!stored) throw fail(s.error);
          const records = collection(`${s.collection}:records`);
          // Each attach is a new record; a repeat for the same call replaces the one kept (the spec's row).
          const n = ++store.processes;
          if (s.replaces || !records.has(textOf(params[s.key]))) records.set(textOf(params[s.key]), { n, params });
          const info = mock.legacy[s.method];
          const options = info?.result.oneOf ?? info?.result.anyOf;
          const c = s.choice;
          const sent = (name: string) => params[name] !== undefined && params[name] !== "";
          const pick = c && options ? options[sent(c.given) && !c.absent.some(sent) ? c.option : c.otherwise] : info?.result;
          const answer = (sample(pick ?? {}, mock.schemas, randomOf(`${s.method}:${n}`)) ?? {}) as Record<string, unknown>;
          // An integer member of the answer is the new record's id.
          for (const [k, v] of Object.entries(resolve(pick ?? {}, mock.schemas).properties ?? {})) if (v.type === "integer") put(answer, k, n);
          return answer;
        });
        break;
      case "offline-reserve":
        stateful.set(s.method, (params) => {
          const limit = Math.max(1, numberOf(params[s.limit] ?? mock.pageSize) || mock.pageSize);
          const keep = textOf(params[s.param] ?? "") === textOf(s.value);
          const reuse = typeof params[s.id] === "string" && params[s.id] !== "" ? (params[s.id] as string) : null;
          const wantFailed = textOf(params[s.failed] ?? "0") === "1";
          const picked = store.offline.filter((e) => (reuse ? e.process === reuse : e.process === null) && e.failed === wantFailed).slice(0, limit);
          if (!keep) {
            store.offline = store.offline.filter((e) => !picked.includes(e));
            return { [s.answer.id]: null, [s.answer.events]: picked.map((e) => e.event) };
          }
          const id = reuse ?? `mock-process-${++store.processes}`;
          for (const e of picked) e.process = id;
          return { [s.answer.id]: picked.length > 0 ? id : null, [s.answer.events]: picked.map((e) => e.event) };
        });
        break;
      case "offline-clear":
        stateful.set(s.method, (params) => {
          const list = (name: string | null) => (name && Array.isArray(params[name]) ? (params[name] as unknown[]).map((v) => textOf(v)) : null);
          const ids = list(s.records);
          const messages = list(s.messages);
          const chosen = (e: Store["offline"][number]) => (!ids || ids.includes(textOf(e.event[s.record.id]))) && (!messages || messages.includes(textOf(e.event[s.record.message])));
          store.offline = store.offline.filter((e) => !(e.process === params[s.id] && chosen(e)));
          return true;
        });
        break;
      case "offline-error":
        stateful.set(s.method, (params) => {
          const messages = Array.isArray(params[s.messages]) ? (params[s.messages] as unknown[]).map((v) => textOf(v)) : null;
          for (const e of store.offline) {
            if (e.process === params[s.id] && (!messages || messages.includes(textOf(e.event[s.record.message])))) {
              e.failed = true;
              e.process = null;
            }
          }
          return true;
        });
        break;
      case "unique-binding": {
        // Bindings are an application's own: another application binds, lists and unbinds its own.
        const p = s.params;
        online = p.online;
        const typeOf = (v: unknown) => (v === undefined || v === "" ? p.online : textOf(v));
        stateful.set(s.method, (params, context) => {
          const binding: Binding = { id: store.bound + 1, event: textOf(params[p.event]).toUpperCase(), handler: params[p.handler], authType: numberOf(params[p.authType] ?? 0) || 0, type: typeOf(params[p.eventType]), owner: context.auth.applicationId ?? "" };
          if (store.bindings.some((b) => b.owner === binding.owner && b.event === binding.event && b.handler === binding.handler && b.type === binding.type)) throw fail(s.error);
          store.bound += 1;
          store.bindings.push(binding);
          // Kept either way, as the platform keeps it; the mock says now that it will not deliver there.
          const refused = binding.type === p.online ? undeliverable(binding.handler, hosts) : null;
          if (refused) options.log?.({ level: "warn", method: s.method, message: `the handler ${shownUrl(binding.handler)} of ${oneLine(binding.event)} is kept, but the mock will not deliver events to it: ${refused}` });
          return true;
        });
        if (s.unbind) {
          // Parameters not given do not restrict the match (the spec's event.unbind); the answer is the count.
          stateful.set(s.unbind, (params, context) => {
            const before = store.bindings.length;
            const given = (name: string) => params[name] !== undefined && params[name] !== "";
            store.bindings = store.bindings.filter(
              (b) =>
                !(
                  b.owner === (context.auth.applicationId ?? "") &&
                  (!given(p.event) || b.event === textOf(params[p.event]).toUpperCase()) &&
                  (!given(p.handler) || b.handler === params[p.handler]) &&
                  (!given(p.eventType) || b.type === textOf(params[p.eventType])) &&
                  (params[p.authType] === undefined || (numberOf(params[p.authType]) || 0) === b.authType)
                ),
            );
            // The answer's number member (the spec's `{count}`) is how many went.
            const schema = resolve(mock.legacy[s.unbind as string]?.result ?? {}, mock.schemas);
            const member = Object.entries(schema.properties ?? {}).find(([, v]) => v.type === "integer" || v.type === "number")?.[0];
            return member ? { [member]: before - store.bindings.length } : before - store.bindings.length;
          });
        }
        if (s.list) {
          // The documentation's answer of event.get (api-reference/events/event-get.md): the bind's parameters, the
          // user as a string, `offline` 1 or 0.
          stateful.set(s.list, (_params, context) =>
            store.bindings
              .filter((b) => b.owner === (context.auth.applicationId ?? ""))
              .map((b) => ({ [p.event]: b.event, [p.handler]: b.handler, [p.authType]: textOf(b.authType), [p.offline]: b.type === p.offline ? 1 : 0 })),
          );
        }
        break;
      }
      case "hidden-until-installed":
        stateful.set(s.method, (params, context) => {
          // A record of the list's kind, its members from the parameters of the same name (`LANG_ALL` → `langAll`).
          const item = mock.legacy[s.list]?.result.items ?? {};
          const record = (sample(item, mock.schemas, randomOf(`${s.method}:${store.placements.length}`)) ?? {}) as Record<string, unknown>;
          const bare = (k: string) => k.replace(/_/g, "").toLowerCase();
          const props = resolve(item, mock.schemas).properties ?? {};
          for (const key of Object.keys(record)) {
            const given = Object.keys(params).find((p) => bare(p) === bare(key));
            // A parameter is echoed where it fits the member: a string for a string (a URL for a link); an object
            // member keeps its made value, whose required members the parameter may lack.
            const v = given === undefined ? undefined : params[given];
            const member = resolve(props[key] ?? {}, mock.schemas);
            if (typeof v === "string" && member.type === "string" && (member.format !== "uri" || /^https?:\/\/\S+$/.test(v))) put(record, key, v);
            else if (typeof v === "number" && (member.type === "integer" || member.type === "number") && Number.isInteger(v)) put(record, key, v);
          }
          echo(record, props, mock.schemas, "id", store.placements.length + 1);
          if (!Object.keys(params).some((p) => bare(p) === "userid")) echo(record, { userId: props.userId ?? {} }, mock.schemas, "userId", context.auth.userId);
          store.placements.push({ handler: record, hidden: !installed });
          return true;
        });
        stateful.set(s.list, () => store.placements.filter((p) => !p.hidden).map((p) => p.handler));
        break;
      case "router":
        break;
    }
  }

  /**
   * A method's answer made from its schema; a member that is a resource named by a parameter (`task` by `taskId`
   * or `id`) is the kept object of that resource, so that what a state row changed shows in later answers.
   */
  const answer = (version: Version, name: string, info: MockMethod, params: Record<string, unknown>, context: HandlerContext) => {
    if (info.caller) {
      // The user the call's credentials name: webhook user 1 is user 1, however the body was written.
      const user = context.auth.userId;
      const target = baseRef(info.result) ?? info.result;
      const schema = resolve(target, mock.schemas);
      const id = ["ID", "id"].find((k) => schema.properties?.[k] !== undefined);
      return kept(target, textOf(user), (o, p) => (id ? echo(o, p, mock.schemas, id, user) : undefined), true);
    }
    const result = sample(info.result, mock.schemas, randomOf(`${version}:${name}:${JSON.stringify(params)}`), name);
    const props = resolve(info.result, mock.schemas).properties ?? {};
    if (typeof result !== "object" || result === null || Array.isArray(result)) return result;
    for (const [member, schema] of Object.entries(props)) {
      // The resource itself, or the resource with members of this version (3.0's `item`: a Task and `archiveLink`).
      const base = baseRef(schema);
      if (!base?.$ref) continue;
      // The method's own parameter that names it: `<member>Id` (`taskId` for `task`), else `<resource>Id` (`taskId`
      // for 3.0's `item`, a Task), else `id`. The kept object is the resource's, so both versions see one task 5.
      const declared = data[version][name]?.params.map((p) => p.name) ?? [];
      const resource = base.$ref.slice(base.$ref.lastIndexOf("/") + 1);
      const byResource = `${resource.charAt(0).toLowerCase()}${resource.slice(1)}Id`;
      const param = declared.find((p) => p === `${member}Id`) ?? declared.find((p) => p === byResource) ?? declared.find((p) => p === "id");
      if (param === undefined || params[param] === undefined || params[param] === "" || params[param] === null || typeof params[param] === "object") continue;
      const record = kept(base, textOf(params[param]), (o, p) => echo(o, p, mock.schemas, param, params[param]), false);
      const sampled = (result as Record<string, unknown>)[member];
      put(result as Record<string, unknown>, member, base === schema || typeof sampled !== "object" || sampled === null ? record : { ...sampled, ...record });
    }
    return result;
  };

  const handlersOf = (version: Version) => {
    const out: Record<string, Handler> = {};
    for (const [name, info] of Object.entries(mock[version])) {
      const own = version === "legacy" ? stateful.get(name) : undefined;
      out[name] =
        own ??
        (info.list && version === "legacy"
          ? (params) => listAnswer(name, info, params)
          : (params, context) => answer(version, name, info, params, context));
    }
    // Named methods whose behaviour a state row gives (event.get, event.offline.get…): served, nothing else is.
    if (version === "legacy") for (const [name, h] of stateful) out[name] ??= h;
    return out;
  };

  const authenticate = mockAuthenticate(seed, data, mock);
  const table = (version: Version) => {
    const out: Record<string, () => unknown> = {};
    for (const name of builtIn.documentation[version]) out[name] = () => documents.openapiV3;
    for (const name of builtIn.scopeList[version]) out[name] = () => data.scopeMap;
    return out;
  };
  const { records: _records, seed: _seed, events: _events, ...routerOptions } = options;
  const router = createRuntimeHandler({ legacy: handlersOf("legacy"), v3: handlersOf("v3") }, { ...routerOptions, authenticate }, { ...data, builtIns: { legacy: table("legacy"), v3: table("v3") } });

  const deliverEvent: MockHandler["deliverEvent"] = async (event, given, how = {}) => {
    const code = textOf(event).toUpperCase();
    const report: EventDeliveryReport = { event: code, delivered: [], skipped: [] };
    const known = mock.events?.[code];
    const data = given !== undefined ? given : known?.data ? sample(known.data, mock.schemas, randomOf(`event:${code}`), "data") : undefined;
    const origin = how.origin ?? "https://127.0.0.1";
    const domain = new URL(origin).host;
    // The bindings as they are now: a handler that binds another while it is called is not called in this run.
    const bound = store.bindings.filter((b) => b.event === code && (how.applicationId === undefined || b.owner === how.applicationId));
    // The data once, bounded: PHP's form repeats every key's whole path, so a deep value grows many times over.
    const dataPart = bound.length > 0 && data !== undefined ? formEncode({ data }, MAX_EVENT_BODY) : "";
    // Bindings in order; each waits for the one before, so that a run costs at most bindings × timeout.
    for (const b of bound) {
      const shown = shownUrl(b.handler);
      const refused = b.type !== online ? "an offline binding: its events wait for event.offline.get" : undeliverable(b.handler, hosts);
      if (refused) {
        report.skipped.push({ id: b.id, handler: shown, problem: refused });
        continue;
      }
      const auth = {
        domain,
        client_endpoint: `${origin}/rest/`,
        // The mock serves no OAuth server; its own origin stands for the platform's.
        server_endpoint: `${origin}/oauth/rest/`,
        member_id: "mock",
        status: "L",
        scope: (known?.scopes ?? []).join(","),
        application_token: seed.applicationToken ?? "mock-application-token",
      };
      const head = formEncode({ event: code, event_handler_id: textOf(b.id) });
      const tail = formEncode({ ts: textOf(Math.floor(Date.now() / 1000)), auth });
      const body = [head, dataPart, tail].filter(Boolean).join("&");
      report.delivered.push({ id: b.id, handler: shown, ...(await post(textOf(b.handler), body, options.events ?? {})) });
    }
    return report;
  };

  /**
   * `POST /_mock/events`: JSON only (a browser's page cannot send it without a preflight the mock never grants), and
   * through the node adapter only from a loopback peer (a mock listening on another address takes calls from the
   * network, not orders to post to this machine's loopback). `auth[domain]` names the mock as the request reached it
   * when that is a loopback address, else 127.0.0.1: a Host header never sends a handler elsewhere.
   */
  const control = async (input: RouterInput): Promise<Out> => {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      return out(400, { error: "INVALID_REQUEST", error_description: "the request's address does not parse" });
    }
    // Through an adapter (a peer, or null when it cannot tell): a loopback peer, and a Host that names loopback too, so
    // that a page whose name was pointed at this machine (DNS rebinding) is refused as well.
    if (input.peer !== undefined && !(input.peer && isLoopback(input.peer) && isLoopback(url.hostname))) {
      return out(403, { error: "ACCESS_DENIED", error_description: `${EVENTS_CONTROL_PATH} answers loopback callers, addressed by a loopback name, only` });
    }
    if (input.method !== "POST") return out(405, { error: "METHOD_NOT_ALLOWED", error_description: `POST ${EVENTS_CONTROL_PATH} with {"event": NAME, "data"?: VALUE}` });
    if (!/^application\/json\b/i.test(input.header("content-type") ?? "")) return out(415, { error: "INVALID_REQUEST", error_description: "the body must be JSON (content-type: application/json)" });
    const text = await input.readText(1 << 20).catch(() => null);
    let asked: unknown = null;
    try {
      asked = typeof text === "string" ? JSON.parse(text) : null;
    } catch {
      asked = null;
    }
    const o = typeof asked === "object" && asked !== null && !Array.isArray(asked) ? (asked as Record<string, unknown>) : null;
    if (!o || typeof o.event !== "string" || !o.event) return out(400, { error: "INVALID_REQUEST", error_description: `a JSON object {"event": NAME, "data"?: VALUE, "applicationId"?: ID} of at most 1 MiB` });
    const origin = isLoopback(url.hostname) ? url.origin : `${url.protocol}//127.0.0.1`;
    let report: EventDeliveryReport;
    try {
      report = await deliverEvent(o.event, o.data, { origin, ...(typeof o.applicationId === "string" ? { applicationId: o.applicationId } : {}) });
    } catch (err) {
      if (err instanceof RangeError) return out(400, { error: "INVALID_REQUEST", error_description: err.message });
      throw err;
    }
    for (const d of report.delivered) if (d.problem) options.log?.({ level: "warn", message: `event ${oneLine(report.event)} to ${d.handler}: ${oneLine(d.problem)}` });
    return out(200, report);
  };
  const routerCore = router[CORE];
  const core: Core = (input) => (pathOf(input) === EVENTS_CONTROL_PATH ? control(input) : routerCore(input));
  const handle = async (request: Request): Promise<Response> => {
    if (new URL(request.url).pathname !== EVENTS_CONTROL_PATH) return router(request);
    // In process the caller is the program itself: no peer to check.
    const o = await control({
      url: request.url,
      method: request.method,
      header: (name) => request.headers.get(name),
      readText: (limit) => readCapped(request.body, limit, request.headers.get("content-length")),
      request: () => request,
    });
    return new Response(o.body, { status: o.status, headers: o.headers });
  };
  return Object.assign(handle, { deliverEvent, [CORE]: core });
}

/** The most a delivered event's form body may be (its data encoded): past it, the delivery is refused. */
const MAX_EVENT_BODY = 4 << 20;

const out = (status: number, body: unknown): Out => ({ status, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) });

/** The path a router input names (the node adapter's raw path, else the URL's). */
function pathOf(input: RouterInput): string {
  if (input.pathname !== undefined) return input.pathname;
  try {
    return new URL(input.url).pathname;
  } catch {
    return "";
  }
}

/**
 * 127.0.0.0/8, ::1 and their IPv4-mapped forms, and the name `localhost`. A URL writes the mapped form in hex
 * (`[::ffff:127.0.0.1]` is `[::ffff:7f00:1]`), a socket's peer in dots: both are read.
 */
function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(h);
}

/** A host name as URLs write it (`APP.example.` → `app.example`, `[::1]` → `::1`), or null for no host. */
export function normalHost(host: string): string | null {
  try {
    return new URL(`http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}/`).hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  } catch {
    return null;
  }
}

/**
 * A handler's address as messages show it: origin and path, never a query, a fragment or credentials, and a path
 * segment that may be a token as `<redacted>`: hook URLs carry theirs in the path. A segment of 16 characters or more
 * is one unless it reads as lower-case words joined by `-`, `_` or `.` (`my-deal-handler-page`, `event-handler.php`);
 * the segment after `rest/<user id>/` (a webhook's code) is one whatever its length. A URL of another scheme than
 * http(s) (an offline binding keeps any) shows its scheme alone: its path may hold anything, credentials too.
 */
function shownUrl(handler: unknown): string {
  try {
    const u = new URL(textOf(handler));
    if (u.protocol !== "http:" && u.protocol !== "https:") return `${u.protocol}${REDACTED}`;
    const segments = u.pathname.split("/");
    const path = segments
      .map((seg, i) => {
        const hookCode = i >= 2 && segments[i - 2] === "rest" && /^\d+$/.test(segments[i - 1] ?? "") && seg !== "";
        return hookCode || (seg.length >= 16 && !/^[a-z]+(?:[-_.][a-z]+)+$/.test(seg)) ? REDACTED : seg;
      })
      .join("/");
    return `${u.protocol}//${u.host}${path}`;
  } catch {
    return "(not a URL)";
  }
}

/** Why the mock does not deliver to a handler (null: it does): only http(s), only loopback or the named hosts. */
function undeliverable(handler: unknown, hosts: ReadonlySet<string>): string | null {
  let u: URL;
  try {
    u = new URL(textOf(handler));
  } catch {
    return "not a URL";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return `${u.protocol} is not http or https`;
  if (u.username || u.password) return "the URL carries credentials";
  const host = normalHost(u.hostname) ?? "";
  // Loopback as written, not as normalised: `localhost.` is a fully qualified name that the hosts file need not
  // answer, so the system's resolver may look it up elsewhere. Only `localhost` itself is the loopback name (RFC 6761).
  if (isLoopback(u.hostname) || hosts.has(host)) return null;
  return "not on loopback, and no --event-host names it";
}

/** One delivery: no redirect followed, a timeout, the answer read up to its bound (and cancelled past it). */
async function post(url: string, body: string, events: MockEventOptions): Promise<{ status?: number; problem?: string }> {
  const timeout = events.timeoutMs ?? 5_000;
  const max = events.maxAnswerBytes ?? 64 << 10;
  try {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body, redirect: "manual", signal: AbortSignal.timeout(timeout) });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => undefined);
      return { status: res.status, problem: "a redirect, not followed" };
    }
    const answer = await readCapped(res.body, max, res.headers.get("content-length"));
    if (answer === null) return { status: res.status, problem: `an answer over ${max} bytes, cut off` };
    return res.ok ? { status: res.status } : { status: res.status, problem: `the handler answered ${res.status}` };
  } catch (err) {
    const name = err instanceof Error ? err.name : "";
    return { problem: name === "TimeoutError" || name === "AbortError" ? `no answer within ${timeout} ms` : "the handler could not be reached" };
  }
}

/**
 * Who a request is: the seed's webhooks and tokens when it names any (others are `INVALID_CREDENTIALS` or
 * `invalid_token`), else anyone, as an administrator with every scope the spec names.
 */
function mockAuthenticate(seed: MockSeed, data: ServerData, mock: MockData): (c: Credentials<number | string>) => Caller | { error: string } {
  const everyScope = [...new Set(Object.values(data.scopeMap).flatMap((m) => Object.values(m).flatMap((s) => s ?? [])))];
  const admin = (userId: number | string) => {
    if (!seed.users) return true;
    return seed.users.some((u) => textOf(u.id) === textOf(userId) && u.admin === true);
  };
  const named = seed.webhooks !== undefined || seed.tokens !== undefined;
  return (c) => {
    if (c.kind === "webhook") {
      if (!named) return { userId: Number(c.userId) || c.userId, scopes: everyScope, admin: admin(c.userId) };
      const hook = seed.webhooks?.find((w) => textOf(w.userId) === textOf(c.userId) && w.code === c.code);
      return hook ? { userId: hook.userId, scopes: hook.scopes, admin: admin(hook.userId) } : { error: data.codes.invalidCredentials };
    }
    if (!named) return { userId: 1, scopes: everyScope, admin: admin(1), applicationId: "mock" };
    const token = seed.tokens?.find((t) => t.token === c.token);
    return token ? { userId: token.userId, scopes: token.scopes, admin: admin(token.userId), applicationId: token.applicationId ?? "mock" } : { error: mock.invalidToken };
  };
}
