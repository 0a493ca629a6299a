import type { ServerData, Version } from "../shared/data.js";
import { type Caller, type Credentials, type HandlerContext, type HandlerOptions, MethodError, createRuntimeHandler } from "./handler.js";
import type { BuiltInSpec } from "./index.js";
import { page, pageOf, withoutCount } from "./page.js";

/**
 * The mock (issue 15): the generated router with a default handler for every method the spec describes, so that a
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

/** A behaviour of the States table, as the generator read it (its row's line in the spec). */
export type MockState = { row: number } & (
  | { kind: "set"; method: string; key: string[]; member: string | null; field: string; value: unknown }
  | { kind: "link"; method: string; param: string; on: unknown; off: unknown; byDefault: unknown; field: string }
  | { kind: "store"; method: string; collection: string; key: string }
  | { kind: "require"; method: string; collection: string; key: string; error: { code: string; text: string; status: number }; replaces: boolean }
  | { kind: "offline-reserve"; method: string; param: string; value: unknown; id: string }
  | { kind: "offline-clear"; method: string; id: string }
  | { kind: "offline-error"; method: string; id: string }
  | { kind: "unique-binding"; method: string; unbind: string | null; list: string | null; error: { code: string; text: string; status: number } }
  | { kind: "hidden-until-installed"; method: string; list: string }
  | { kind: "router" }
);

export interface MockMethod {
  /** The OpenAPI schema of the envelope's `result`. */
  result: Schema;
  /** A legacy list method: the member that identifies a record (the `>ID` cursor's), if its records have one. */
  list?: { id: string | null };
}

/** The generated `mock.js`. */
export interface MockData {
  legacy: Record<string, MockMethod>;
  v3: Record<string, MockMethod>;
  schemas: Record<string, Schema>;
  states: MockState[];
  /** Rows of the States table the mock does not model, with why. */
  unmodelled: Array<{ row: number; text: string; why: string }>;
  /** The platform's page size. */
  pageSize: number;
  /** The code of a token the mock does not know (the authorization failures table's). */
  invalidToken: string;
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
}

export interface MockOptions extends Partial<Omit<HandlerOptions, "authenticate">> {
  /** Records each list method holds when the seed gives none. Default three pages (150). */
  records?: number;
  seed?: MockSeed;
  /** Serve plain HTTP (local development only: the platform refuses HTTP). */
  allowHttp?: boolean;
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
      for (const [key, s] of Object.entries(schema.properties ?? {})) out[key] = sample(s, schemas, random, key, depth + 1);
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

/** An identifier of the type the schema gives it: a decimal string or a number. */
function idValue(schema: Schema | undefined, schemas: Record<string, Schema>, n: number): unknown {
  const s = schema ? resolve(schema, schemas) : {};
  return s.type === "integer" || s.type === "number" ? n : String(n);
}

/** The key prefixes of a list filter, longest first (the spec's list of `FILTER` prefixes). */
const PREFIXES = [">=", "<=", "!@", "=%", "%=", "!%", "!=%", "!%=", "!=", ">", "<", "@", "%", "=", "!"].sort((a, b) => b.length - a.length);

function compare(a: unknown, b: unknown): number {
  const x = Number(a);
  const y = Number(b);
  if (a !== "" && b !== "" && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return String(a ?? "").localeCompare(String(b ?? ""));
}

function like(value: unknown, pattern: string): boolean {
  const re = new RegExp(`^${pattern.split("%").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`, "i");
  return re.test(String(value ?? ""));
}

/** Whether a record matches one filter entry: the key's prefix is the operation (the spec's list). */
function matches(record: Record<string, unknown>, key: string, expected: unknown): boolean {
  const prefix = PREFIXES.find((p) => key.startsWith(p) && key.length > p.length) ?? "";
  const value = record[key.slice(prefix.length)];
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
      return String(value ?? "").toLowerCase().includes(String(expected).toLowerCase());
    case "!%":
      return !String(value ?? "").toLowerCase().includes(String(expected).toLowerCase());
    case "=%":
    case "%=":
      return like(value, String(expected));
    case "!=%":
    case "!%=":
      return !like(value, String(expected));
    case "!=":
    case "!":
      return Array.isArray(expected) ? !list.some((e) => compare(value, e) === 0) : compare(value, expected) !== 0;
    default:
      return Array.isArray(expected) ? list.some((e) => compare(value, e) === 0) : compare(value, expected) === 0;
  }
}

/** `FILTER`, `ORDER` and `SELECT` of a list request, under the spec's names or the documentation's lower case. */
function listParams(params: Record<string, unknown>): { filter: Record<string, unknown>; order: Record<string, unknown>; select: string[] } {
  const pick = (name: string) => params[name.toUpperCase()] ?? params[name.toLowerCase()];
  const object = (v: unknown) => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const select = pick("select");
  return { filter: object(pick("filter")), order: object(pick("order")), select: Array.isArray(select) ? select.map(String) : [] };
}

interface Store {
  records: Map<string, Array<Record<string, unknown>>>;
  objects: Map<string, Record<string, unknown>>;
  collections: Map<string, Map<string, Record<string, unknown>>>;
  bindings: Array<Record<string, unknown>>;
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
): (request: Request) => Promise<Response> {
  const seed = options.seed ?? {};
  const perList = options.records ?? mock.pageSize * 3;
  const store: Store = { records: new Map(), objects: new Map(), collections: new Map(), bindings: [], offline: [], placements: [], processes: 0 };
  for (const [i, event] of (seed.offlineEvents ?? []).entries()) store.offline.push({ event: { ID: String(i + 1), ...event }, process: null, failed: false });
  const installed = seed.installed ?? true;

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
        if (info.list?.id) record[info.list.id] = idValue(idSchema, mock.schemas, i + 1);
        return record;
      });
    store.records.set(name, made);
    return made;
  };

  /** A legacy list page: filtered, ordered, selected, cut at `start` (none with `start = -1`, as the platform). */
  const listAnswer = (name: string, info: MockMethod, params: Record<string, unknown>) => {
    const { filter, order, select } = listParams(params);
    let rows = recordsOf(name, info).filter((r) => Object.entries(filter).every(([k, v]) => matches(r, k, v)));
    const keys = Object.entries(order);
    if (keys.length > 0) {
      rows = [...rows].sort((a, b) => {
        for (const [field, dir] of keys) {
          const c = compare(a[field], b[field]);
          if (c !== 0) return String(dir).toUpperCase() === "DESC" ? -c : c;
        }
        return 0;
      });
    }
    const pick = select.filter((f) => f !== "*");
    const project = (r: Record<string, unknown>) => (pick.length === 0 ? r : Object.fromEntries(pick.filter((f) => f in r).map((f) => [f, r[f]])));
    if (withoutCount(params)) return page(rows.slice(0, mock.pageSize).map(project));
    const p = pageOf(rows, params.start, mock.pageSize);
    return page(p.items.map(project), { ...(p.total === undefined ? {} : { total: p.total }), ...(p.next === undefined ? {} : { next: p.next }) });
  };

  /** An object a method reads or changes, kept by the method's key parameters, made once from its schema. */
  const objectOf = (key: string, schema: Schema) => {
    let o = store.objects.get(key);
    if (!o) {
      o = sample(schema, mock.schemas, randomOf(key)) as Record<string, unknown>;
      store.objects.set(key, o);
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
          const key = `${s.method.split(".").slice(0, -1).join(".")}:${s.key.map((k) => String(params[k] ?? "")).join("/")}`;
          const o = objectOf(key, target);
          // The object is the one the key names: `id` 7 unpins task 7.
          const props = resolve(target, mock.schemas).properties ?? {};
          for (const k of s.key) if (params[k] !== undefined && k in props) o[k] = idValue(props[k], mock.schemas, Number(params[k]));
          o[s.field] = s.value;
          return s.member ? { [s.member]: o } : o;
        });
        break;
      case "link":
        stateful.set(s.method, (params) => {
          const value = params[s.param] ?? s.byDefault;
          const on = String(value) === String(s.on);
          return { [s.field]: on ? `https://mock.example/pub/${encodeURIComponent(String(params.id ?? "1"))}` : null };
        });
        break;
      case "store":
        stateful.set(s.method, (params) => {
          const info = mock.legacy[s.method];
          const record = sample(info?.result ?? {}, mock.schemas, randomOf(`${s.method}:${String(params[s.key])}`)) as Record<string, unknown>;
          if (typeof record === "object" && record !== null && s.key in record) record[s.key] = params[s.key];
          collection(s.collection).set(String(params[s.key]), { ...record });
          return record;
        });
        break;
      case "require":
        stateful.set(s.method, (params) => {
          const stored = collection(s.collection).get(String(params[s.key]));
          if (!stored) throw fail(s.error);
          const files = collection(`${s.collection}:records`);
          // A repeated call replaces the earlier record: the call keeps one, under a new file id.
          const fileId = files.size + 1 + (files.has(String(params[s.key])) ? 1000 : 0);
          files.set(String(params[s.key]), { FILE_ID: fileId, params });
          if (params.FILENAME && !params.FILE_CONTENT && !params.RECORD_URL) return { uploadUrl: `https://mock.example/upload/${fileId}`, fieldName: "file" };
          return { FILE_ID: fileId };
        });
        break;
      case "offline-reserve":
        stateful.set(s.method, (params) => {
          const limit = Math.max(1, Number(params.limit ?? mock.pageSize) || mock.pageSize);
          const keep = String(params[s.param] ?? "1") === String(s.value);
          const reuse = typeof params[s.id] === "string" && params[s.id] !== "" ? (params[s.id] as string) : null;
          const wantErrors = String(params.error ?? "0") === "1";
          const picked = store.offline.filter((e) => (reuse ? e.process === reuse : e.process === null) && e.failed === wantErrors).slice(0, limit);
          if (!keep) {
            store.offline = store.offline.filter((e) => !picked.includes(e));
            return { process_id: null, events: picked.map((e) => e.event) };
          }
          const id = reuse ?? `mock-process-${++store.processes}`;
          for (const e of picked) e.process = id;
          return { process_id: picked.length > 0 ? id : null, events: picked.map((e) => e.event) };
        });
        break;
      case "offline-clear":
        stateful.set(s.method, (params) => {
          const ids = Array.isArray(params.id) ? params.id.map(String) : null;
          store.offline = store.offline.filter((e) => !(e.process === params[s.id] && (!ids || ids.includes(String(e.event.ID)))));
          return true;
        });
        break;
      case "offline-error":
        stateful.set(s.method, (params) => {
          const messages = Array.isArray(params.message_id) ? params.message_id.map(String) : null;
          for (const e of store.offline) {
            if (e.process === params[s.id] && (!messages || messages.includes(String(e.event.MESSAGE_ID)))) {
              e.failed = true;
              e.process = null;
            }
          }
          return true;
        });
        break;
      case "unique-binding": {
        const same = (b: Record<string, unknown>, p: Record<string, unknown>) =>
          String(b.event).toUpperCase() === String(p.event).toUpperCase() && b.handler === p.handler && (b.event_type ?? "online") === (p.event_type ?? "online");
        stateful.set(s.method, (params, context) => {
          const binding = { event: String(params.event).toUpperCase(), handler: params.handler, auth_type: Number(params.auth_type ?? 0), event_type: params.event_type ?? "online", owner: context.auth.applicationId ?? "" };
          if (store.bindings.some((b) => same(b, binding))) throw fail(s.error);
          store.bindings.push(binding);
          return true;
        });
        if (s.unbind) {
          stateful.set(s.unbind, (params) => {
            const before = store.bindings.length;
            store.bindings = store.bindings.filter(
              (b) =>
                !(
                  String(b.event) === String(params.event).toUpperCase() &&
                  b.handler === params.handler &&
                  (params.event_type === undefined || b.event_type === params.event_type) &&
                  (params.auth_type === undefined || params.auth_type === "" || Number(b.auth_type) === Number(params.auth_type))
                ),
            );
            return { count: before - store.bindings.length };
          });
        }
        if (s.list) {
          // The documentation's answer of event.get (api-reference/events/event-get.md): event, handler, auth_type, offline.
          stateful.set(s.list, () => store.bindings.map((b) => ({ event: b.event, handler: b.handler, auth_type: String(b.auth_type), offline: b.event_type === "offline" ? 1 : 0 })));
        }
        break;
      }
      case "hidden-until-installed":
        stateful.set(s.method, (params, context) => {
          // A record of the list's kind, its members from the parameters of the same name (`LANG_ALL` → `langAll`).
          const item = mock.legacy[s.list]?.result.items ?? {};
          const record = (sample(item, mock.schemas, randomOf(`${s.method}:${store.placements.length}`)) ?? {}) as Record<string, unknown>;
          const bare = (k: string) => k.replace(/_/g, "").toLowerCase();
          for (const key of Object.keys(record)) {
            const given = Object.keys(params).find((p) => bare(p) === bare(key));
            if (given !== undefined) record[key] = params[given];
          }
          if ("id" in record) record.id = idValue(resolve(item, mock.schemas).properties?.id, mock.schemas, store.placements.length + 1);
          if ("userId" in record) record.userId = idValue(resolve(item, mock.schemas).properties?.userId, mock.schemas, Number(context.auth.userId));
          store.placements.push({ handler: record, hidden: !installed });
          return true;
        });
        stateful.set(s.list, () => store.placements.filter((p) => !p.hidden).map((p) => p.handler));
        break;
      case "router":
        break;
    }
  }

  const handlersOf = (version: Version) => {
    const out: Record<string, Handler> = {};
    for (const [name, info] of Object.entries(mock[version])) {
      const own = version === "legacy" ? stateful.get(name) : undefined;
      out[name] =
        own ??
        (info.list && version === "legacy"
          ? (params) => listAnswer(name, info, params)
          : (params) => sample(info.result, mock.schemas, randomOf(`${version}:${name}:${JSON.stringify(params)}`), name));
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
  const { records: _records, seed: _seed, ...routerOptions } = options;
  return createRuntimeHandler({ legacy: handlersOf("legacy"), v3: handlersOf("v3") }, { ...routerOptions, authenticate }, { ...data, builtIns: { legacy: table("legacy"), v3: table("v3") } });
}

/**
 * Who a request is: the seed's webhooks and tokens when it names any (others are `INVALID_CREDENTIALS` or
 * `invalid_token`), else anyone, as an administrator with every scope the spec names.
 */
function mockAuthenticate(seed: MockSeed, data: ServerData, mock: MockData): (c: Credentials) => Caller | { error: string } {
  const everyScope = [...new Set(Object.values(data.scopeMap).flatMap((m) => Object.values(m).flatMap((s) => s ?? [])))];
  const admin = (userId: number | string) => {
    if (!seed.users) return true;
    return seed.users.some((u) => String(u.id) === String(userId) && u.admin === true);
  };
  const named = seed.webhooks !== undefined || seed.tokens !== undefined;
  return (c) => {
    if (c.kind === "webhook") {
      if (!named) return { userId: Number(c.userId) || c.userId, scopes: everyScope, admin: admin(c.userId) };
      const hook = seed.webhooks?.find((w) => String(w.userId) === c.userId && w.code === c.code);
      return hook ? { userId: hook.userId, scopes: hook.scopes, admin: admin(hook.userId) } : { error: data.codes.invalidCredentials };
    }
    if (!named) return { userId: 1, scopes: everyScope, admin: admin(1), applicationId: "mock" };
    const token = seed.tokens?.find((t) => t.token === c.token);
    return token ? { userId: token.userId, scopes: token.scopes, admin: admin(token.userId), applicationId: token.applicationId ?? "mock" } : { error: mock.invalidToken };
  };
}
