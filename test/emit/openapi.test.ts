import { readFileSync } from "node:fs";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3 } from "openapi-types";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../helpers.js";
import { Ajv } from "ajv";
import { fieldSchema, typeSchema } from "../../generator/emit/openapi/schema.js";
import { lintDocuments } from "../support/lint.js";
import { pruneSchemas } from "../../generator/emit/openapi/components.js";
import { type TypeRef, prose } from "../../generator/model/view.js";

const load = (name: string) => JSON.parse(readFileSync(join(ROOT, "output/openapi", name), "utf8")) as OpenAPIV3.Document & Record<string, unknown>;
const v3 = load("openapi.v3.json");
const legacy = load("openapi.legacy.json");
type Op = OpenAPIV3.OperationObject & Record<string, unknown>;
const op = (doc: OpenAPIV3.Document, name: string, verb: "post" | "get" = "post") => (doc.paths[`/${name}`] as Record<string, Op>)[verb] as Op;
const body = (o: Op) => ((o.requestBody as OpenAPIV3.RequestBodyObject).content["application/json"]?.schema ?? {}) as OpenAPIV3.SchemaObject;

describe("OpenAPI documents", () => {
  it.each(["openapi.v3.json", "openapi.legacy.json", "openapi.v3.yaml", "openapi.legacy.yaml"])("%s validates as OpenAPI 3.0.3", async (name) => {
    await expect(SwaggerParser.validate(join(ROOT, "output/openapi", name))).resolves.toBeTruthy();
  });

  it("the YAML twins hold the same content as the JSON", () => {
    for (const name of ["v3", "legacy"]) {
      const yaml = parse(readFileSync(join(ROOT, `output/openapi/openapi.${name}.yaml`), "utf8"));
      expect(yaml).toEqual(load(`openapi.${name}.json`));
    }
  });

  it("lint clean (redocly, recommended rules), but for the one resource no method names", () => {
    // Before each document kept only the schemas it names, the 3.0 document carried the legacy methods' resources and
    // the legacy one V3Error: 16 warnings of no-unused-components; a nullable union added a null-only option that
    // redocly reads as overlapping a `string` one.
    const { others, unnamed } = lintDocuments(join(ROOT, "output"));
    expect(others).toEqual([]);
    expect(unnamed).toEqual(["MessageProvider"]);
  }, 60_000);

  it("each document keeps the schemas it names, and every $ref resolves in it", () => {
    const names = (d: Record<string, unknown>) => Object.keys((d.components as { schemas: object }).schemas);
    expect(names(legacy)).not.toContain("V3Error");
    expect(names(v3)).toContain("V3Error");
    expect(names(v3)).not.toContain("LegacyError");
    // Named only by legacy methods, and gone from the 3.0 document; the one no method names stays in both.
    expect(names(v3)).not.toContain("CurrentUser");
    expect(names(legacy)).toContain("CurrentUser");
    for (const d of [v3, legacy]) {
      expect(names(d)).toContain("MessageProvider");
      const refs = [...JSON.stringify(d).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] as string);
      expect(refs.length).toBeGreaterThan(10);
      for (const r of refs) expect(names(d)).toContain(r);
    }
  });

  it("pruning keeps what a kept schema names: no $ref is left pointing at nothing", () => {
    const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
    const doc = (paths: Record<string, unknown>) => ({ paths, components: { schemas: { Legacy: { type: "object" }, Orphan: { type: "object", properties: { l: ref("Legacy") } }, V3Only: { type: "string" }, Both: { type: "string" } } } });
    const legacyDoc = doc({ "/a": { post: { responses: { 200: { content: { "application/json": { schema: { allOf: [ref("Legacy"), ref("Both")] } } } } } } } });
    const v3Doc = doc({ "/b": { post: { responses: { 200: { content: { "application/json": { schema: { allOf: [ref("V3Only"), ref("Both")] } } } } } } } });
    pruneSchemas(v3Doc, legacyDoc);
    // Orphan (reached by neither) stays in both, and so does Legacy, which it names; V3Only leaves the legacy one.
    expect(Object.keys(v3Doc.components.schemas).sort()).toEqual(["Both", "Legacy", "Orphan", "V3Only"]);
    expect(Object.keys(legacyDoc.components.schemas).sort()).toEqual(["Both", "Legacy", "Orphan"]);
    for (const d of [v3Doc, legacyDoc]) for (const m of JSON.stringify(d).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) expect(Object.keys(d.components.schemas)).toContain(m[1]);
  });

  it("an object the model leaves open says additionalProperties: true; one that lists its members says nothing more", () => {
    const member = { name: "ID", type: { kind: "primitive", type: "integer" } as TypeRef, required: false, nullable: false, description: "", source: { file: "a.md", line: 1, column: 1 } };
    expect(typeSchema({ kind: "object", members: [member], open: true } as unknown as TypeRef)).toMatchObject({ type: "object", additionalProperties: true });
    expect(typeSchema({ kind: "object", members: [], open: true } as TypeRef)).toEqual({ type: "object", additionalProperties: true });
    expect(typeSchema({ kind: "object", members: [member] } as unknown as TypeRef)).not.toHaveProperty("additionalProperties");
    // A map keeps its value's schema.
    expect(typeSchema({ kind: "object", members: [], open: true, additional: { kind: "primitive", type: "string" } } as TypeRef)).toMatchObject({ additionalProperties: { type: "string" } });
    // In the shipped spec's documents: placement.bind's `OPTIONS` ("depends on the point").
    const options = (body(op(legacy, "placement.bind")).properties?.["OPTIONS"] ?? {}) as OpenAPIV3.SchemaObject;
    expect(options.additionalProperties).toBe(true);
  });

  it("key forms say their names (`x-key-names`), and a closed object's forms their patterns (`x-key-patterns`)", () => {
    const at = { file: "a.md", line: 1, column: 1 };
    const str = { kind: "primitive", type: "string" } as TypeRef;
    const uf = { name: "UF_...", type: str, required: false, nullable: false, description: "", source: at };
    const title = { ...uf, name: "TITLE" };
    const closed = typeSchema({ kind: "object", members: [title], keys: [uf], keyNames: ["UF_..."], keyDescription: "`UF_...` (Custom fields)" } as unknown as TypeRef);
    expect(closed).toEqual({
      type: "object",
      properties: { TITLE: { type: "string" } },
      description: "Also keys of the form `UF_...` (Custom fields).",
      "x-key-names": ["UF_..."],
      "x-key-patterns": { "^UF_.*$": { type: "string" } },
    });
    // An open object says so as before; its forms keep their patterns.
    const open = typeSchema({ kind: "object", members: [title], keys: [uf], keyNames: ["UF_..."], open: true } as unknown as TypeRef);
    expect(open).toMatchObject({ additionalProperties: true, "x-key-names": ["UF_..."], "x-key-patterns": { "^UF_.*$": { type: "string" } } });
    // As `patternProperties`, a pattern holds for the members it matches and the forms it covers: it admits theirs.
    const int = { kind: "primitive", type: "integer" } as TypeRef;
    const wide = typeSchema({ kind: "object", members: [{ ...title, name: "UF_DOC", type: int }], keys: [uf, { ...uf, name: "UF_CRM_...", type: { kind: "primitive", type: "boolean" } }], keyNames: ["UF_...", "UF_CRM_..."] } as unknown as TypeRef) as Record<string, unknown>;
    expect(wide["x-key-patterns"]).toEqual({ "^UF_.*$": { anyOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }] }, "^UF_CRM_.*$": { type: "boolean" } });
    // A form that is any key (`<userId>`) has no pattern: the map's value says it.
    const map = typeSchema({ kind: "object", members: [], keys: [{ ...uf, name: "<userId>" }], keyNames: ["<userId>"], keyDescription: "`<userId>`", additional: str } as unknown as TypeRef);
    expect(map).toEqual({ type: "object", additionalProperties: { type: "string" }, description: "Keyed by `<userId>`.", "x-key-names": ["<userId>"] });
  });

  it("a nullable union takes null as one of its plain options, so its oneOf options do not overlap", () => {
    const s = fieldSchema({ name: "x", type: { kind: "union", options: [{ kind: "primitive", type: "integer" }, { kind: "primitive", type: "string" }] }, required: false, nullable: true, description: "", source: { file: "a.md", line: 1, column: 1 } } as never) as Record<string, unknown>;
    expect(s.oneOf).toEqual([{ type: "integer", nullable: true }, { type: "string" }]);
    // One type or null is that type, nullable (a oneOf of one option is redocly's no-illogical-composition-keywords).
    expect(typeSchema({ kind: "union", options: [{ kind: "primitive", type: "string" }, { kind: "null" }] } as TypeRef)).toEqual({ type: "string", nullable: true });
    // Options that are all references keep the null-only option.
    const r = typeSchema({ kind: "union", options: [{ kind: "ref", resource: "A" }, { kind: "null" }] } as TypeRef) as Record<string, unknown>;
    expect(r.oneOf).toEqual([{ $ref: "#/components/schemas/A" }, { type: "string", nullable: true, enum: [null] }]);
    // Ajv reads OpenAPI's `nullable`: null, an integer and a string each match exactly one option.
    const ajv = new Ajv({ strict: false });
    for (const [value, ok] of [[null, true], [1, true], ["a", true], [true, false]] as const) expect(ajv.validate(s, value), String(value)).toBe(ok);
  });

  it("a nullable enum lists null among its values, as OpenAPI 3.0 requires (the mail service's SMTP_LOGIN_AS_IMAP, sale's basket item type)", () => {
    const at = { file: "a.md", line: 1, column: 1 };
    const s = fieldSchema({ name: "SMTP_LOGIN_AS_IMAP", type: { kind: "primitive", type: "string", enum: ["Y", "N"] }, required: false, nullable: true, description: "", source: at } as never) as Record<string, unknown>;
    expect(s).toMatchObject({ type: "string", nullable: true, enum: ["Y", "N", null] });
    // `nullable` alone does not widen an enum: a validator refused null until it was one of the values.
    const ajv = new Ajv({ strict: false });
    for (const [value, ok] of [[null, true], ["Y", true], ["X", false]] as const) expect(ajv.validate(s, value), String(value)).toBe(ok);
    const n = fieldSchema({ name: "type", type: { kind: "primitive", type: "integer", enum: [1, 2] }, required: false, nullable: true, description: "", source: at } as never) as Record<string, unknown>;
    expect(n.enum).toEqual([1, 2, null]);
    // Not nullable: the values as they are.
    expect((fieldSchema({ name: "x", type: { kind: "primitive", type: "string", enum: ["Y", "N"] }, required: false, nullable: false, description: "", source: at } as never) as Record<string, unknown>).enum).toEqual(["Y", "N"]);
  });

  it("info, servers and version follow the contract", () => {
    expect(v3.openapi).toBe("3.0.3");
    expect(v3.info.title).toBe("Collaboration Platform REST API Specification");
    // The packages' version: plain semver that npm orders (issue 7), the same in both documents and every package.
    const packageVersion = (JSON.parse(readFileSync(join(ROOT, "output/types/package.json"), "utf8")) as { version: string }).version;
    expect(v3.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(v3.info.version).toBe(packageVersion);
    expect(legacy.info.version).toBe(packageVersion);
    expect(v3.servers?.map((s) => s.url)).toEqual(["{base_url}/rest/api/{user_id}/{webhook_code}", "{base_url}/rest/api"]);
    expect(legacy.servers?.map((s) => s.url)).toEqual(["{base_url}/rest/{user_id}/{webhook_code}", "{base_url}/rest"]);
    expect(Object.keys(legacy.servers?.[0]?.variables ?? {})).toEqual(["base_url", "user_id", "webhook_code"]);
  });

  it("one path per method, post operation named after it, GET twin for 3.0 methods without parameters", () => {
    expect(Object.keys(v3.paths)).toEqual([
      "/rest.documentation.openapi",
      "/documentation",
      "/rest.scope.list",
      "/tasks.task.add",
      "/tasks.task.chat.message.send",
      "/tasks.task.get",
    ]);
    expect(op(v3, "rest.scope.list").operationId).toBe("rest.scope.list");
    expect(op(v3, "rest.scope.list", "get").operationId).toBe("rest.scope.list:get");
    expect(op(v3, "tasks.task.get", "get")).toBeUndefined();
    expect(op(legacy, "tasks.task.get").operationId).toBe("tasks.task.get");
    expect(legacy.paths["/disk.*"]).toBeUndefined();
    expect((legacy["x-method-families"] as Array<{ name: string }>).map((f) => f.name)).toEqual(["disk.*", "sale.paysystem.handler.*", "department.*"]);
  });

  it("request bodies: properties, exact required lists, types, enums, defaults, constraints", () => {
    const getaccess = body(op(legacy, "tasks.task.getaccess"));
    expect(getaccess.required).toEqual(["taskId"]);
    expect(getaccess.properties?.taskId).toMatchObject({ type: "integer" });
    const line = body(op(legacy, "telephony.externalLine.add"));
    expect(line.properties?.CRM_AUTO_CREATE).toMatchObject({ type: "string", enum: ["Y", "N"], default: "Y" });
    const show = body(op(legacy, "telephony.externalCall.show"));
    expect(show.properties?.USER_ID).toMatchObject({ oneOf: [{ type: "integer" }, { type: "array", items: { type: "integer" } }] });
    const attach = body(op(legacy, "telephony.externalCall.attachRecord"));
    expect(attach.anyOf).toEqual([{ required: ["RECORD_URL"] }, { required: ["FILENAME"] }]);
    const recall = body(op(legacy, "vote.AttachedVote.recall"));
    // anyOf: any one complete call form; the spec does not make them exclude each other (D8).
    expect(recall.anyOf).toEqual([{ required: ["attachId"] }, { required: ["moduleId", "entityType", "entityId"] }, { required: ["signedAttachId"] }]);
    expect(recall.required).toBeUndefined();
    const comment = body(op(legacy, "task.comment.add"));
    expect(Object.keys(comment.properties ?? {})).toEqual(["TASKID", "COMMENTTEXT", "FIELDS"]);
    expect(comment.properties?.TASKID).not.toHaveProperty("type");
    const v3add = body(op(v3, "tasks.task.add"));
    expect(v3add.properties?.fields).toMatchObject({ type: "object", properties: { title: {}, responsibleId: {}, creatorId: {} } });
    expect(body(op(legacy, "event.get"))).toEqual({ type: "object", additionalProperties: true, description: "The spec names this method without its parameters." });
  });

  it("operation extensions", () => {
    const finish = op(legacy, "telephony.externalCall.finish");
    expect(finish["x-scopes"]).toEqual(["telephony"]);
    expect(finish["x-access"]).toBe("any");
    expect(finish["x-application-context-only"]).toBe(true);
    expect(op(legacy, "event.unbind")["x-scopes"]).toBeNull();
    expect(op(v3, "tasks.task.add")["x-idempotency-key"]).toBe(true);
    expect(op(v3, "tasks.task.add").parameters).toEqual([{ $ref: "#/components/parameters/IdempotencyKey" }]);
    expect(op(v3, "tasks.task.get")["x-idempotency-key"]).toBeUndefined();
    expect(op(legacy, "task.comment.add")).toMatchObject({ deprecated: true, "x-replacement": "tasks.task.chat.message.send" });
    expect(op(legacy, "event.get")["x-described"]).toBe(false);
    // D29: the file and the section, never a line (an edit above a method changes nothing in the documents).
    expect(op(legacy, "tasks.task.getaccess")["x-source"]).toEqual({ file: "spec-source/collaboration-platform-api.md", anchor: "tasks" });
    expect(op(legacy, "tasks.task.getaccess")["x-errors"]).toEqual([
      { status: 400, code: "0", text: "wrong task id" },
      { status: 400, code: "100", text: "Invalid value {} to match with parameter {users}. Should be value of type array." },
      { status: 400, code: "100", text: null },
    ]);
    expect(op(legacy, "telephony.externalCall.attachRecord")["x-errors"]).toContainEqual({ status: 400, code: "", text: "Call is not found in the statistic table. Looks like it is not finished yet." });
    expect(op(legacy, "event.offline.clear")["x-errors"]).toContainEqual({ status: null, code: null, text: "Value must be array of integers" });
  });

  it("x-errors-open where the spec leaves a method's errors open, and only there (contracts.md)", () => {
    const open = Object.entries(legacy.paths)
      .filter(([, item]) => (item as Record<string, Op>).post?.["x-errors-open"] === true)
      .map(([path]) => path.slice(1));
    // "Errors of `tasks.task.get`, `tasks.task.stopwatch` and `calendar.user.settings.set`: not shown"; "Error codes
    // other than ...: not shown"; errors listed without a code; methods the spec only names.
    expect(open).toEqual(expect.arrayContaining(["tasks.task.get", "tasks.task.stopwatch", "calendar.user.settings.set", "sale.paysystem.settings.update", "event.offline.clear", "event.get"]));
    for (const listed of ["tasks.task.getaccess", "user.current", "telephony.externalLine.add", "event.bind"]) {
      expect(op(legacy, listed)["x-errors-open"], listed).toBeUndefined();
    }
    expect(op(legacy, "sale.paysystem.settings.update")["x-errors"]).toContainEqual({ status: 400, code: "ERROR_CHECK_FAILURE", text: "Pay system not found" });
  });

  it("envelope and error responses", () => {
    const ok = (op(legacy, "tasks.task.get").responses["200"] as OpenAPIV3.ResponseObject).content?.["application/json"]?.schema as OpenAPIV3.SchemaObject;
    expect(ok.required).toEqual(["result", "time"]);
    expect(ok.properties?.time).toEqual({ $ref: "#/components/schemas/Time" });
    expect(ok.properties?.result).toMatchObject({ type: "object", required: ["task"], properties: { task: { $ref: "#/components/schemas/Task" } } });
    expect(Object.keys(op(legacy, "event.bind").responses)).toEqual(["200", "400", "403", "4XX", "5XX"]);
    expect(Object.keys(op(legacy, "vote.AttachedVote.recall").responses)).toEqual(["200", "4XX", "5XX"]);
    expect((op(legacy, "vote.AttachedVote.recall").responses["4XX"] as OpenAPIV3.ResponseObject).description).toBe("Error: ATTACH_NOT_FOUND, (code not given).");
    expect(op(legacy, "event.bind").responses["403"]).toMatchObject({ content: { "application/json": { schema: { $ref: "#/components/schemas/LegacyError" } } } });
  });

  it("components hold every resource, Time and the error bodies; the top-level catalogue every table row", () => {
    const schemas = Object.keys(legacy.components?.schemas ?? {});
    // Every resource of the model is in one document or both; V3Error only in the 3.0 document, which names it.
    const both = new Set([...schemas, ...Object.keys(v3.components?.schemas ?? {})]);
    for (const name of ["Task", "TaskCreator", "TaskChecklistItem", "AllowedActions", "ExternalCallStatisticsRecord", "CurrentUser", "MailService", "PaySystem", "PlacementHandler", "AttachedVote", "CalendarUserSettings", "Time", "LegacyError"]) {
      expect(schemas).toContain(name);
    }
    const model = JSON.parse(readFileSync(join(ROOT, "output/model.json"), "utf8")) as { resources: Array<{ name: string }> };
    for (const r of model.resources) expect(both.has(r.name), r.name).toBe(true);
    expect(Object.keys(v3.components?.schemas ?? {})).toContain("V3Error");
    expect(schemas).toEqual([...schemas].sort());
    const time = legacy.components?.schemas?.Time as OpenAPIV3.SchemaObject;
    expect(time.required).toEqual(["start", "finish", "duration", "processing", "date_start", "date_finish", "operating"]);
    const catalogue = legacy["x-errors"] as Array<Record<string, unknown>>;
    expect(catalogue.filter((e) => e.kind === "system")).toHaveLength(17);
    expect(catalogue.filter((e) => e.kind === "v3")).toHaveLength(7);
    expect(catalogue.filter((e) => e.kind === "auth")).toHaveLength(6);
    expect(catalogue).toContainEqual({ kind: "system", status: 401, altStatus: 403, code: "insufficient_scope", text: "The request requires higher privileges than provided by the webhook token", cause: "token lacks rights; for applications the text ends with `provided by the access token`", variants: [{ when: "applications", text: "provided by the access token", ending: true }] });
    expect(catalogue).toContainEqual({ kind: "v3", status: null, code: "SERVICE_REST_V3_EXCEPTION_INVALIDJSONEXCEPTION", text: null, cause: "body not JSON" });
  });

  it("what the spec does not show is an empty schema with a note, never an invented type", () => {
    const scope = (op(v3, "rest.scope.list").responses["200"] as OpenAPIV3.ResponseObject).content?.["application/json"]?.schema as OpenAPIV3.SchemaObject;
    const result = scope.properties?.result as OpenAPIV3.SchemaObject;
    expect(result).not.toHaveProperty("type");
    expect(result.description).toMatch(/^Not shown in the spec/);
    expect(v3.components?.schemas?.V3Error).toEqual({ description: "Body of 3.0 error responses. Not shown in the spec: any value is accepted." });
  });
});

describe("a small spec edit gives a small diff (issue 25, D29)", () => {
  it("lines added above every method change model.json, the shipped spec copy and the manifest, nothing else", async () => {
    const { generate } = await import("../../generator/generate.js");
    const { GEN, SPEC_TEXT } = await import("../helpers.js");
    const before = await generate(SPEC_TEXT, GEN);
    const first = SPEC_TEXT.indexOf("\n");
    const shifted = `${SPEC_TEXT.slice(0, first)}\n\n\n${SPEC_TEXT.slice(first)}`;
    const after = await generate(shifted, GEN);
    const old = new Map(before.files.map((f) => [f.path, f.contents]));
    const changed = after.files.filter((f) => old.get(f.path) !== f.contents).map((f) => f.path);
    // Before issue 25 the OpenAPI documents changed at every `x-source` line, the legacy one on 69 lines.
    // What every spec change rewrites (D13): the changelogs name the spec's hash, the manifest and the spec's copy.
    expect(changed.sort()).toEqual(["client/CHANGELOG.md", "manifest.json", "model.json", "server/CHANGELOG.md", "types/CHANGELOG.md", "types/spec/spec.md"]);
    expect(after.files.find((f) => f.path === ".gitattributes")?.contents).toMatch(/^model\.json linguist-generated=true$/m);
  });
});

describe("unions in the documents: oneOf where the options are disjoint, anyOf where one value may match two", () => {
  const ajv = new Ajv({ strict: false });
  const str: TypeRef = { kind: "primitive", type: "string" };
  const valid = (t: TypeRef, v: unknown) => ajv.validate(typeSchema(t), v);

  it("an option of any value, integer beside number: anyOf, and the value is accepted", () => {
    const langMap: TypeRef = { kind: "union", options: [str, { kind: "unknown", note: prose("lang_map") }] };
    expect(Object.keys(typeSchema(langMap))).toContain("anyOf");
    expect(valid(langMap, "Filter")).toBe(true);
    expect(valid({ kind: "union", options: [{ kind: "primitive", type: "integer" }, { kind: "primitive", type: "number" }] }, 5)).toBe(true);
  });

  it("disjoint options stay oneOf: a string or a map, two objects each with a required member of its own", () => {
    const member = (name: string): TypeRef => ({ kind: "object", members: [{ name, type: str, required: true, nullable: false, description: prose(""), source: { file: "f", line: 1, column: 1 } }] });
    expect(Object.keys(typeSchema({ kind: "union", options: [str, { kind: "object", members: [], additional: str }] }))).toEqual(["oneOf"]);
    expect(Object.keys(typeSchema({ kind: "union", options: [member("uploadUrl"), member("FILE_ID")] }))).toEqual(["oneOf"]);
  });

  it("cases of an object that require nothing of their own: anyOf, and a value of two cases is accepted", () => {
    const optional = (...names: string[]): TypeRef => ({ kind: "object", members: names.map((name) => ({ name, type: str, required: false, nullable: false, description: prose(""), source: { file: "f", line: 1, column: 1 } })) });
    const cases: TypeRef = { kind: "union", options: [optional("title", "dealId"), optional("title", "leadId")] };
    expect(Object.keys(typeSchema(cases))).toEqual(["anyOf"]);
    // As oneOf, `{ title }` matched both cases and was refused.
    expect(valid(cases, { title: "x" })).toBe(true);
    expect(ajv.validate({ oneOf: (cases.kind === "union" ? cases.options : []).map(typeSchema) }, { title: "x" })).toBe(false);
  });
});
