import type { Method, Model, StateTransition } from "../../model/view.js";
import type { MockData, MockMethod, MockState, OfflineNames, Schema } from "../../../runtime/server/mock.js";
import { type GeneratedFile, jsonFile } from "../files.js";
import { cursorMethods, isListMethod, pageSizeOf } from "../../model/questions.js";
import { words } from "../prose.js";

/**
 * `server/mock.js`: what the mock (issue 15) needs beside `methods.js`. The OpenAPI schema of each method's `result`
 * (taken from the generated documents, so that every answer the mock makes is valid against them), which legacy
 * methods are lists and by which member their records are identified, and the rows of the spec's States table read
 * into behaviour. A row no reading here recognises, or recognises in part, is listed by `readStates` with its line,
 * and the mock says so at start: a row is never half-modelled in silence.
 */

type Doc = {
  paths?: Record<string, { post?: { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> } }>;
  components?: { schemas?: Record<string, Schema> };
  "x-events"?: Record<string, { payload: Schema; scopes: string[] | null }>;
};

function resultSchema(doc: Doc, name: string): Schema | null {
  const envelope = doc.paths?.[`/${name}`]?.post?.responses?.["200"]?.content?.["application/json"]?.schema;
  return envelope?.properties?.result ?? null;
}

/**
 * The offline queue's names where the spec shows none (`event.offline.get` and `event.offline.error` are only named
 * there): the platform's documentation, api-reference/events/event-offline-get.md and event-offline-error.md.
 */
const OFFLINE_DOCS: OfflineNames & { limit: string; failed: string } = {
  id: "process_id",
  messages: "message_id",
  limit: "limit",
  failed: "error",
  answer: { id: "process_id", events: "events" },
  record: { id: "ID", message: "MESSAGE_ID" },
};

/** A parameter of the method by its name, in any case (the row writes `status`, the method may say `STATUS`). */
const paramNamed = (m: Method, name: string) => m.params.find((p) => p.name.toLowerCase() === name.toLowerCase());

/**
 * The States rows' effects as the mock's behaviour. The front end read each row's words into a typed effect
 * (read/state-effects.ts for the spec); this finds the methods, parameters and errors the effect names in the model.
 * What a row says that the mock does not model goes to `unmodelled`.
 */
export function readStates(model: Model): { states: Array<MockState & { row: number }>; unmodelled: Unmodelled[] } {
  const states: Array<MockState & { row: number }> = [];
  const unmodelled: Unmodelled[] = [];
  const skip = (t: StateTransition, why: string) => unmodelled.push({ row: t.source.line, text: `${words(t.subject)} | ${words(t.trigger)}`, why });
  const legacy = (name: string | null) => (name === null ? undefined : model.methods.find((x) => x.version === "legacy" && x.name === name));
  for (const t of model.states.transitions) {
    const row = t.source.line;
    const e = t.effect;
    if (e.kind === "idempotency") {
      states.push({ row, kind: "router" });
      continue;
    }
    if (e.kind === "unique-binding") {
      const bind = legacy(e.method);
      const error = bind?.errors.find((x) => x.code === e.code && x.text);
      if (!bind || !error?.code || !error.text) {
        skip(t, "no method of the spec triggers it");
        continue;
      }
      // "Handlers kept" on an update holds by itself: the mock's application is never updated.
      const named = (n: string) => (legacy(n) ? n : null);
      const type = paramNamed(bind, "event_type");
      const values = type?.type.kind === "primitive" ? (type.type.enum ?? []).map(String) : [];
      const params = {
        event: paramNamed(bind, "event")?.name ?? "event",
        handler: paramNamed(bind, "handler")?.name ?? "handler",
        authType: paramNamed(bind, "auth_type")?.name ?? "auth_type",
        eventType: type?.name ?? "event_type",
        online: values.find((v) => v.toLowerCase().includes("online")) ?? "online",
        offline: values.find((v) => v.toLowerCase().includes("offline")) ?? "offline",
      };
      states.push({ row, kind: "unique-binding", method: bind.name, unbind: named("event.unbind"), list: named("event.get"), error: { code: error.code, text: words(error.text), status: error.status ?? 400 }, params });
      continue;
    }
    if (e.kind === "installation") {
      skip(t, "a change of the application's installation, not a call: the mock has no installations to remove or update");
      continue;
    }
    const m = legacy(e.method);
    if (!m) {
      skip(t, "no method of the spec triggers it");
      continue;
    }
    const callKey = m.params.find((p) => p.name.endsWith("_ID") && p.required)?.name;
    const offline = (id: string | null): OfflineNames => ({
      ...OFFLINE_DOCS,
      id: id ?? OFFLINE_DOCS.id,
      messages: paramNamed(m, "message_id")?.name ?? OFFLINE_DOCS.messages,
    });
    switch (e.kind) {
      case "link": {
        const param = paramNamed(m, e.param)?.name;
        const existing = states.find((s) => s.kind === "link" && s.method === m.name);
        if (param && existing?.kind === "link") {
          if (e.on) existing.on = e.value;
          else existing.off = e.value;
        } else if (param) {
          states.push({ row, kind: "link", method: m.name, param, on: e.on ? e.value : null, off: e.on ? null : e.value, byDefault: e.byDefault ? e.value : null, field: e.field, key: m.params.find((p) => p.required)?.name ?? null });
        } else skip(t, `the method has no parameter \`${e.param}\` that the row turns the link with`);
        break;
      }
      case "set": {
        const forms = m.constraints.find((c) => c.kind === "call-forms");
        const key = forms?.kind === "call-forms" ? [...new Set(forms.forms.flat())] : m.params.filter((p) => p.required).map((p) => p.name);
        states.push({ row, kind: "set", method: m.name, key, member: e.member ?? m.result?.key ?? null, field: e.field, value: e.value });
        break;
      }
      case "store":
        if (!callKey) {
          skip(t, "no reading of the mock recognises this row");
          break;
        }
        states.push({ row, kind: "store", method: m.name, collection: e.collection, key: callKey });
        if (e.crm) skip(t, "in part: the statistics are kept; the mock has no CRM activities or objects to create or assign");
        break;
      case "require": {
        if (!callKey) {
          skip(t, "no reading of the mock recognises this row");
          break;
        }
        const want = e.error;
        const found = want === null ? undefined : m.errors.find((x) => x.code === want.code && x.text === want.text);
        // The code may be empty (the spec's `""`): present, not missing.
        const error = found && found.code !== null && found.text ? { code: found.code, text: words(found.text), status: found.status ?? 400 } : null;
        const options = m.result?.type.kind === "union" ? m.result.type.options : [];
        const c = e.choice;
        const option = c ? options.findIndex((o) => o.kind === "object" && o.members.some((f) => f.name === c.member)) : -1;
        const choice = c && option >= 0 && options.length === 2 ? { given: c.given, absent: c.absent, option, otherwise: 1 - option } : null;
        if (error) states.push({ row, kind: "require", method: m.name, collection: e.collection, key: callKey, error, replaces: e.replaces, choice });
        else skip(t, "the spec gives no error for the condition");
        break;
      }
      case "offline-reserve":
        if (e.id === null) skip(t, "no reading of the mock recognises this row");
        else states.push({ row, kind: "offline-reserve", method: m.name, param: e.param, value: e.value, limit: OFFLINE_DOCS.limit, failed: OFFLINE_DOCS.failed, ...offline(e.id) });
        break;
      case "offline-clear": {
        const records = m.params.find((p) => p.name.toLowerCase() === "id" && p.type.kind === "array")?.name ?? null;
        states.push({ row, kind: "offline-clear", method: m.name, records, ...offline(e.id) });
        break;
      }
      case "offline-error":
        states.push({ row, kind: "offline-error", method: m.name, ...offline(e.id) });
        break;
      case "hidden-until-installed": {
        const list = legacy(e.list);
        if (list) {
          states.push({ row, kind: "hidden-until-installed", method: m.name, list: list.name });
          if (e.shownAfter) skip(t, "in part: no installation finishes while the mock runs; start it with `installed: true` in the seed (the default) to see widgets");
        } else skip(t, "no method lists what it registers");
        break;
      }
      case "unread":
        skip(t, "no reading of the mock recognises this row");
        break;
    }
  }
  // Rows the spec leaves open (the bullets under the table) are not rows: nothing to model.
  return { states, unmodelled };
}

/** A row of the States table the mock does not model (or models in part), with why; printed when the mock starts. */
export interface Unmodelled {
  row: number;
  text: string;
  why: string;
}

export function mockData(model: Model, legacyDoc: unknown, v3Doc: unknown): MockData {
  const cursors = cursorMethods(model);
  const methods = (version: "legacy" | "v3", doc: Doc) => {
    const out: Record<string, MockMethod> = {};
    for (const m of model.methods) {
      if (m.version !== version || !m.described || m.wildcard) continue;
      const result = resultSchema(doc, m.name);
      if (!result) continue;
      const list = version === "legacy" && isListMethod(model, m);
      const param = (name: string) => paramNamed(m, name)?.name ?? null;
      const names = { id: cursors[m.name]?.[2] ?? null, filter: param("filter"), order: param("order"), select: param("select") };
      const caller = m.resultSubject === "caller" ? { caller: true as const } : {};
      for (const name of [m.name, ...m.aliases]) out[name] = { result, ...(list ? { list: names } : {}), ...caller };
    }
    return out;
  };
  const legacy = legacyDoc as Doc;
  const v3 = v3Doc as Doc;
  // Without their lines: a line moved by an edit elsewhere in the spec changes nothing the mock does (issue 10).
  const states = readStates(model).states.map(({ row: _row, ...state }) => state as MockState);
  const pageSize = pageSizeOf(model);
  const invalidToken = model.platform.codes.invalidToken.value;
  // The reference's event pages, as the legacy document carries them (`x-events`): what a delivered event's data is.
  const events = legacy["x-events"];
  return {
    legacy: methods("legacy", legacy),
    v3: methods("v3", v3),
    schemas: { ...v3.components?.schemas, ...legacy.components?.schemas },
    states,
    pageSize,
    invalidToken,
    ...(events ? { events: Object.fromEntries(Object.entries(events).map(([code, e]) => [code, { data: e.payload.properties?.data ?? null, scopes: e.scopes }])) } : {}),
  };
}

/** `server/mock.js` and its declarations. */
export function serverMock(model: Model, legacyDoc: unknown, v3Doc: unknown, header: string): GeneratedFile[] {
  return [
    {
      path: "server/mock.js",
      raw: true,
      contents: `// ${header}\n// What the mock answers with: result schemas, list methods, the States table read into behaviour (MockData).\nexport default ${JSON.stringify(mockData(model, legacyDoc, v3Doc))};\n`,
    },
    {
      path: "server/mock.d.ts",
      raw: true,
      contents: `// ${header}\nimport type { MockData } from "./runtime/server/mock.js";\ndeclare const mock: MockData;\nexport default mock;\n`,
    },
    jsonFile("server/seed.schema.json", { $comment: header, ...seedSchema() }),
  ];
}

/** The seed file's JSON Schema, shipped in the server package as `seed.schema.json`. */
export function seedSchema(): Record<string, unknown> {
  const credentialScopes = { type: "array", items: { type: "string" }, description: "The scopes the credentials carry." };
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "Seed of collab-rest-codegen mock",
    description: "Records and credentials of `collab-rest-codegen mock --seed FILE` (JSON or YAML).",
    type: "object",
    additionalProperties: false,
    properties: {
      users: {
        type: "array",
        description: "Users; a user is an administrator only when `admin` is true. Without users every user id is an administrator.",
        items: { type: "object", additionalProperties: false, required: ["id"], properties: { id: { type: "integer", minimum: 1 }, admin: { type: "boolean" } } },
      },
      webhooks: {
        type: "array",
        description: "Webhooks the mock accepts. Without webhooks and tokens, any credentials are accepted with every scope.",
        items: { type: "object", additionalProperties: false, required: ["userId", "code", "scopes"], properties: { userId: { type: "integer", minimum: 1 }, code: { type: "string", minLength: 1 }, scopes: credentialScopes } },
      },
      tokens: {
        type: "array",
        description: "Application access tokens the mock accepts.",
        items: {
          type: "object",
          additionalProperties: false,
          required: ["token", "userId", "scopes"],
          properties: { token: { type: "string", minLength: 1 }, userId: { type: "integer", minimum: 1 }, scopes: credentialScopes, applicationId: { type: "string" } },
        },
      },
      records: {
        type: "object",
        description: "Records of list methods, by method name (`sale.paysystem.list`) or by the resource of its records (`PaySystem`).",
        additionalProperties: { type: "array", items: { type: "object" } },
      },
      offlineEvents: { type: "array", description: "The offline event queue of `event.offline.get`, in order.", items: { type: "object" } },
      installed: { type: "boolean", description: "Whether the application's installation is finished; widgets bound before are hidden. Default true." },
      applicationToken: { type: "string", minLength: 1, description: "The application token events carry in `auth[application_token]`, what a handler checks. Default `mock-application-token`." },
    },
  };
}

