import type { Method, Model, StateTransition } from "../../model/types.js";
import type { MockData, MockMethod, MockState, OfflineNames, Schema } from "../../../runtime/server/mock.js";
import { type GeneratedFile, jsonFile } from "../files.js";
import { cursorMethods, isListMethod, pageSizeOf } from "../../model/questions.js";

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

/** The backticked names of a text (`` `isPinned` `` → isPinned). */
const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

function methodIn(model: Model, text: string): Method | undefined {
  for (const name of ticked(text)) {
    const m = model.methods.find((x) => x.version === "legacy" && x.name === name);
    if (m) return m;
  }
  return undefined;
}

/** A literal of the spec (`N`, `false`, `1`) as a value. */
function literal(text: string): unknown {
  if (text === "true" || text === "false") return text === "true";
  if (/^-?\d+$/.test(text)) return Number(text);
  return text;
}

/** The error of a method whose text says `words` (the spec's answer to a failed condition). */
function errorSaying(m: Method, words: RegExp): { code: string; text: string; status: number } | null {
  const e = m.errors.find((x) => x.text && words.test(x.text) && x.code !== null);
  return e && e.code !== null && e.text ? { code: e.code, text: e.text, status: e.status ?? 400 } : null;
}

/**
 * Reads the States table into behaviour. Each reading recognises one kind of row by its words; "same method"
 * refers to the row above. What a row says that a reading does not model goes to `unmodelled`.
 */
export function readStates(model: Model): { states: Array<MockState & { row: number }>; unmodelled: Unmodelled[] } {
  const states: Array<MockState & { row: number }> = [];
  const unmodelled: Unmodelled[] = [];
  let previous: Method | undefined;
  const skip = (t: StateTransition, why: string) => unmodelled.push({ row: t.source.line, text: `${t.subject} | ${t.trigger}`, why });
  for (const t of model.states.transitions) {
    const row = t.source.line;
    const m = /^same method\b/i.test(t.trigger) ? previous : methodIn(model, t.trigger);
    previous = m ?? previous;
    const all = `${t.subject} ${t.trigger} ${t.condition} ${t.next} ${t.also}`;
    if (/idempotency record/i.test(t.subject)) {
      states.push({ row, kind: "router" });
      continue;
    }
    if (!m) {
      const code = /binding the same handler again returns `?(\w+)`?/i.exec(t.also)?.[1];
      const bind = model.methods.find((x) => x.version === "legacy" && x.name === "event.bind");
      const error = bind?.errors.find((e) => e.code === code && e.text);
      if (code && bind && error?.code && error.text) {
        // "Handlers kept" on an update holds by itself: the mock's application is never updated.
        const named = (n: string) => (model.methods.some((x) => x.version === "legacy" && x.name === n) ? n : null);
        const param = (re: RegExp) => bind.params.find((x) => re.test(x.name));
        const type = param(/^event_type$/i);
        const values = type?.type.kind === "primitive" ? (type.type.enum ?? []).map(String) : [];
        const params = {
          event: param(/^event$/i)?.name ?? "event",
          handler: param(/^handler$/i)?.name ?? "handler",
          authType: param(/^auth_type$/i)?.name ?? "auth_type",
          eventType: type?.name ?? "event_type",
          online: values.find((v) => /online/i.test(v)) ?? "online",
          offline: values.find((v) => /offline/i.test(v)) ?? "offline",
        };
        states.push({ row, kind: "unique-binding", method: bind.name, unbind: named("event.unbind"), list: named("event.get"), error: { code: error.code, text: error.text, status: error.status ?? 400 }, params });
      } else {
        skip(t, /application (removed|updated)/i.test(t.trigger) ? "a change of the application's installation, not a call: the mock has no installations to remove or update" : "no method of the spec triggers it");
      }
      continue;
    }
    const status = /with (\w+) (\d+)/i.exec(t.trigger);
    const linkField = /`(\w+)` (holds the link|is null)/i.exec(t.also);
    if (status && linkField) {
      const param = m.params.find((p) => p.name.toLowerCase() === status[1]?.toLowerCase())?.name;
      const value = literal(status[2] as string);
      const on = /holds the link/i.test(t.also);
      const existing = states.find((s) => s.kind === "link" && s.method === m.name);
      if (param && existing?.kind === "link") {
        if (on) existing.on = value;
        else existing.off = value;
      } else if (param) {
        states.push({ row, kind: "link", method: m.name, param, on: on ? value : null, off: on ? null : value, byDefault: /\(default\)/i.test(t.trigger) ? value : null, field: linkField[1] as string, key: m.params.find((p) => p.required)?.name ?? null });
      }
      continue;
    }
    const subjectField = ticked(t.subject)[0];
    const nextValue = /^`([^`]+)`/.exec(t.next)?.[1];
    const example = /`(\w+)`[^`]*shows `(\w+)` (\w+)/i.exec(t.also) ?? /response carries `(\w+)` \(example shows `(\w+)` (\w+)\)/i.exec(t.also);
    const keyParams = () => {
      const forms = m.constraints.find((c) => c.kind === "call-forms");
      if (forms && forms.kind === "call-forms") return [...new Set(forms.forms.flat())];
      return m.params.filter((p) => p.required).map((p) => p.name);
    };
    if (subjectField && nextValue) {
      states.push({ row, kind: "set", method: m.name, key: keyParams(), member: m.result?.key ?? null, field: subjectField, value: literal(nextValue) });
      continue;
    }
    if (example) {
      states.push({ row, kind: "set", method: m.name, key: keyParams(), member: example[1] as string, field: example[2] as string, value: literal(example[3] as string) });
      continue;
    }
    const callKey = m.params.find((p) => /_ID$/.test(p.name) && p.required)?.name;
    if (/stored in (\w+)/i.test(t.next) && callKey) {
      states.push({ row, kind: "store", method: m.name, collection: /stored in (\w+)/i.exec(t.next)?.[1] as string, key: callKey });
      if (/\bCRM\b/.test(`${t.next} ${t.also}`)) skip(t, "in part: the statistics are kept; the mock has no CRM activities or objects to create or assign");
      continue;
    }
    const present = /present in (\w+)/i.exec(t.condition);
    if (present && callKey) {
      const error = errorSaying(m, /not found|not finished/i);
      // "With `FILENAME` and no `FILE_CONTENT` (and no `RECORD_URL`): `result` has `uploadUrl` … Otherwise …": which
      // option of the result answers, from the result's description.
      const rule = /With `(\w+)` and no `(\w+)`(?: \(and no `(\w+)`\))?: `result` has `(\w+)`/.exec(m.result?.description ?? "");
      const options = m.result?.type.kind === "union" ? m.result.type.options : [];
      const option = rule ? options.findIndex((o) => o.kind === "object" && o.members.some((f) => f.name === rule[4])) : -1;
      const choice = rule && option >= 0 && options.length === 2 ? { given: rule[1] as string, absent: [rule[2], rule[3]].filter((x): x is string => Boolean(x)), option, otherwise: 1 - option } : null;
      if (error) states.push({ row, kind: "require", method: m.name, collection: present[1] as string, key: callKey, error, replaces: /replaces/i.test(t.also), choice });
      else skip(t, "the spec gives no error for the condition");
      continue;
    }
    const idParam = ticked(all).find((n) => /process_id/i.test(n)) ?? m.params.find((p) => /process_id/i.test(p.name))?.name;
    const offline = (described: Method): OfflineNames => ({
      ...OFFLINE_DOCS,
      id: idParam ?? OFFLINE_DOCS.id,
      messages: described.params.find((p) => /^message_id$/i.test(p.name))?.name ?? OFFLINE_DOCS.messages,
    });
    if (/with `(\w+)=(\d+)`/.test(t.trigger) && /reserved under/i.test(t.next) && idParam) {
      const [, param, value] = /with `(\w+)=(\d+)`/.exec(t.trigger) as RegExpExecArray;
      states.push({ row, kind: "offline-reserve", method: m.name, param: param as string, value: literal(value as string), limit: OFFLINE_DOCS.limit, failed: OFFLINE_DOCS.failed, ...offline(m) });
      continue;
    }
    if (/records removed from the queue/i.test(t.next)) {
      states.push({ row, kind: "offline-clear", method: m.name, records: m.params.find((p) => /^id$/i.test(p.name) && p.type.kind === "array")?.name ?? null, ...offline(m) });
      continue;
    }
    if (/records marked as failed/i.test(t.next)) {
      states.push({ row, kind: "offline-error", method: m.name, ...offline(m) });
      continue;
    }
    if (/installation not finished/i.test(t.condition) && /hidden/i.test(t.next)) {
      const list = model.methods.find((x) => x.version === "legacy" && x.name === m.name.replace(/\.bind$/, ".get"));
      if (list) {
        states.push({ row, kind: "hidden-until-installed", method: m.name, list: list.name });
        if (/shown after/i.test(t.also)) skip(t, "in part: no installation finishes while the mock runs; start it with `installed: true` in the seed (the default) to see widgets");
      } else skip(t, "no method lists what it registers");
      continue;
    }
    skip(t, "no reading of the mock recognises this row");
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
      const param = (re: RegExp) => m.params.find((p) => re.test(p.name))?.name ?? null;
      const names = { id: cursors[m.name]?.[2] ?? null, filter: param(/^filter$/i), order: param(/^order$/i), select: param(/^select$/i) };
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

