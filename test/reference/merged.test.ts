import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3 } from "openapi-types";
import { beforeAll, describe, expect, it } from "vitest";
import { type GenerateResult, buildFromSource, buildFromText, generateSource } from "../../generator/generate.js";
import { mergeModels } from "../../generator/model/merge.js";
import type { Method, Model } from "../../generator/model/types.js";
import { oneFile } from "../../generator/source/index.js";
import { GEN, ROOT, referenceFolder } from "../helpers.js";

/**
 * The spec and the platform's reference in one model (issue 29 item 1, decisions.md D24): the spec's methods as the
 * spec says them, every other documented method from the reference whole, the spec's gaps a page answers filled with
 * the page's position, and each input named where a fact came from (x-source, @see).
 */

const SPEC = "spec-source/collaboration-platform-api.md";
const DOCS = "spec-source/platform-docs";
const specText = readFileSync(join(ROOT, SPEC), "utf8");

const docs = referenceFolder(join(ROOT, DOCS), DOCS);
const spec = buildFromText(specText, SPEC).model as Model;
const reference = buildFromSource(docs).model as Model;
const { model, report } = mergeModels(spec, reference);
const find = (m: Model, name: string, version = "legacy") => m.methods.find((x) => x.name === name && x.version === version && x.described);
const strip = (m: Method | undefined) => JSON.parse(JSON.stringify(m ?? null)) as Method;

describe("one model from the spec and the reference", () => {
  it("counts methods by where they come from; the spec's named-only methods are typed where a page documents them", () => {
    expect(report.methods.spec).toBe(spec.methods.filter((m) => m.described).length);
    expect(report.methods.reference).toBeGreaterThan(1400);
    expect(report.methods.both).toBeGreaterThanOrEqual(28);
    const named = spec.methods.filter((m) => !m.described);
    const typed = named.filter((m) => find(model, m.name, m.version));
    expect(typed.length).toBeGreaterThanOrEqual(40);
    // A method the spec only names keeps where the spec names it, beside the page that describes it.
    const got = find(model, "crm.currency.list");
    expect(got?.source.file).toMatch(/^spec-source\/platform-docs\//);
    expect(got?.mentions.some((s) => s.file === SPEC)).toBe(true);
  });

  it("keeps the spec's facts where both describe a method: the spec wins", () => {
    // The 3.0 tasks.task.get takes `taskId` in the spec and `id` on its page: the spec's stands.
    expect(find(model, "tasks.task.get", "v3")?.params.map((p) => p.name)).toEqual(find(spec, "tasks.task.get", "v3")?.params.map((p) => p.name));
    // event.bind: the spec requires `handler` only for online events; the page stars it. The spec's reading stands.
    expect(find(model, "event.bind")?.params.find((p) => p.name === "handler")?.required).toBe(find(spec, "event.bind")?.params.find((p) => p.name === "handler")?.required);
    // Nothing the spec states is replaced: every described spec method's errors, access and constraints are its own;
    // a page adds errors only after the spec's, where the spec leaves them open.
    for (const m of spec.methods.filter((x) => x.described)) {
      const merged = strip(find(model, m.name, m.version));
      expect(merged.errors.slice(0, m.errors.length), m.name).toEqual(m.errors);
      if (!m.errorsOpen) expect(merged.errors, m.name).toEqual(m.errors);
      expect(merged.access, m.name).toEqual(m.access);
      expect(merged.constraints, m.name).toEqual(m.constraints);
      expect(merged.source, m.name).toEqual(m.source);
    }
  });

  it("fills the spec's 'not shown' from the pages, with the page's position, and the gaps answered leave the model", () => {
    const send = find(model, "tasks.task.chat.message.send", "v3");
    expect(find(spec, "tasks.task.chat.message.send", "v3")?.result?.type.kind ?? "unknown").toBe("unknown");
    // The page's words: "an object with the key `result` and the value `true` if the message was sent successfully".
    expect(send?.result?.type).toMatchObject({ kind: "object", members: [{ name: "result", type: { kind: "primitive", type: "boolean" }, required: true }] });
    expect(send?.result?.source.file).toMatch(/^spec-source\/platform-docs\/api-reference\/tasks\//);
    expect(send?.scopes).toEqual(["tasks"]);
    // Each filled fact keeps its own position (D29): the scope's line on the page, the parameter's type where the
    // page types it; the parameter stays where the spec names it, in the spec's words, with no position in them.
    expect(find(spec, "tasks.task.chat.message.send", "v3")?.scopes).toBeNull();
    expect(send?.scopesSource?.file).toBe(`${DOCS}/api-reference/tasks/tasks-task-chat-message-send.md`);
    const page = readFileSync(join(ROOT, send?.scopesSource?.file ?? ""), "utf8").split("\n");
    expect(page[(send?.scopesSource?.line ?? 0) - 1]).toMatch(/^> Scope: \[`tasks`\]/);
    for (const m of spec.methods.filter((x) => x.described && x.scopes !== null)) expect(find(model, m.name, m.version)?.scopesSource, m.name).toBeUndefined();
    const update = find(model, "sonet_group.update");
    const specUpdate = find(spec, "sonet_group.update");
    const visible = update?.params.find((p) => p.name === "VISIBLE");
    expect(specUpdate?.params.find((p) => p.name === "VISIBLE")?.type.kind).toBe("unknown");
    expect(visible?.type.kind).not.toBe("unknown");
    expect(visible?.source).toEqual(specUpdate?.params.find((p) => p.name === "VISIBLE")?.source);
    expect(visible?.description).toBe(specUpdate?.params.find((p) => p.name === "VISIBLE")?.description);
    expect(visible?.typeSource?.file).toBe(`${DOCS}/api-reference/sonet-group/sonet-group-update.md`);
    const typed = readFileSync(join(ROOT, visible?.typeSource?.file ?? ""), "utf8").split("\n");
    expect(typed[(visible?.typeSource?.line ?? 0) - 1]).toContain("**VISIBLE**");
    // A parameter the spec types keeps its type and has no other position.
    expect(update?.params.find((p) => p.name === "NAME")?.typeSource).toBeUndefined();
    // The 3.0 error body the spec leaves "not shown", from the include every 3.0 page splices.
    expect(spec.knownGaps.some((g) => g.topic === "v3-error-body")).toBe(true);
    expect(model.knownGaps.some((g) => g.topic === "v3-error-body")).toBe(false);
    expect(model.envelope?.v3ErrorBody?.[0]?.name).toBe("error");
    expect(model.envelope?.v3ErrorBody?.[0]?.source.file).toBe(`${DOCS}/_includes/error-info-v3.md`);
    expect(model.envelope?.legacyErrorBody).toEqual(spec.envelope?.legacyErrorBody);
    expect(report.answered).toContainEqual({ gap: expect.stringMatching(/3\.0 error/), by: expect.stringMatching(/_includes\/error-info-v3\.md:\d+$/) });
    // The events the spec leaves open: the event pages name them, and every one gives its payload; verifying the
    // sender stays a gap (no page's table states it). What a handler receives stays a gap while some event page
    // gives no payload.
    const eventGaps = (m: Model) => m.knownGaps.filter((g) => g.appliesTo.includes("events")).map((g) => g.subject);
    expect(eventGaps(spec)).toEqual(expect.arrayContaining(["List of event codes", "Payload of event notifications sent to handlers"]));
    expect(eventGaps(model)).toEqual(eventGaps(spec).filter((g) => !/event codes/i.test(g) && !/payload/i.test(g)));
    expect((model.eventPayloads ?? []).length).toBeGreaterThanOrEqual(150);
    expect((model.eventPayloads ?? []).every((e) => e.fields.length > 0)).toBe(true);
    const oneWithout = (reference.eventPayloads ?? []).map((e, i) => (i === 0 ? { ...e, fields: [] } : e));
    expect(mergeModels(spec, { ...reference, eventPayloads: oneWithout }).model.knownGaps.some((g) => /payload/i.test(g.subject))).toBe(true);
    // The widgets' placements come whole from the pages; the spec's placement.bind takes their codes as known values
    // (an open set), while its gap on codes, OPTIONS and errors stays: the pages do not type placement.bind's OPTIONS.
    expect((model.placements ?? []).length).toBeGreaterThanOrEqual(39);
    const placement = find(model, "placement.bind")?.params.find((p) => p.name === "PLACEMENT")?.type;
    expect(placement).toMatchObject({ kind: "primitive", type: "string", openEnum: true });
    expect(find(spec, "placement.bind")?.params.find((p) => p.name === "PLACEMENT")?.type).toEqual({ kind: "primitive", type: "string" });
    expect(model.knownGaps.some((g) => g.appliesTo.includes("method:legacy:placement.bind"))).toBe(true);
    // The full list of scopes, from the reference's "Available Scopes" page.
    expect(spec.knownGaps.some((g) => g.subject === "Full list of scopes")).toBe(true);
    expect(model.knownGaps.some((g) => g.subject === "Full list of scopes")).toBe(false);
    expect(model.scopeList?.map((s) => s.code)).toEqual(expect.arrayContaining(["crm", "task", "user", "user_brief", "sonet_group", "socialnetwork"]));
    expect(model.scopeList?.find((s) => s.code === "tasks")?.deprecated).toBe(true);
    expect(model.scopeList?.[0]?.source.file).toBe(`${DOCS}/api-reference/scopes/permissions.md`);
    // The numeric thresholds of request rate, from the reference's limits page; the execution time's stays a gap
    // (the page gives only the self-hosted default).
    expect(spec.knownGaps.some((g) => g.subject === "Numeric thresholds of request rate")).toBe(true);
    expect(model.knownGaps.some((g) => g.subject === "Numeric thresholds of request rate")).toBe(false);
    expect(model.knownGaps.some((g) => g.subject === "Numeric threshold of execution time")).toBe(true);
    expect(report.answered).toContainEqual({ gap: "Numeric thresholds of request rate", by: `${DOCS}/limits.md:49` });
    expect(model.requestRates?.map((r) => [r.plan, r.perSecond, r.burst])).toEqual([["Enterprise", 5, 250], ["Others", 2, 50]]);
    // "Members of the response that continue paging: not shown" (the spec's list methods): the pages' `total` and
    // `next`, each with its page's position, beside the spec's `result` and `time`.
    expect(spec.knownGaps.some((g) => g.subject === "Members of the response that continue paging")).toBe(true);
    expect(model.knownGaps.some((g) => g.subject === "Members of the response that continue paging")).toBe(false);
    expect(report.answered).toContainEqual({ gap: "Members of the response that continue paging", by: expect.stringMatching(/^spec-source\/platform-docs\/api-reference\/.+\.md:\d+$/) });
    expect(model.envelope?.members.map((f) => [f.name, f.required, f.source.file.startsWith(DOCS)])).toEqual([["result", expect.any(Boolean), false], ["time", true, false], ["total", false, true], ["next", false, true]]);
    expect(report.answered.length).toBeGreaterThanOrEqual(10);
    for (const a of report.answered) expect(a.by).toMatch(/^spec-source\/platform-docs\/.+\.md:\d+$/);
    expect(model.knownGaps.length).toBeLessThan(spec.knownGaps.length);
    expect(model.knownGaps.some((g) => g.subject === "Response" && g.appliesTo.includes("method:v3:tasks.task.chat.message.send"))).toBe(false);
  });

  it("fills the errors the spec leaves open from the page's list: the codes it lacks, at their rows; the gap goes only when it asks for errors alone", () => {
    const errorGap = (m: Model, name: string) => m.knownGaps.find((g) => g.appliesTo.includes(`method:legacy:${name}`) && /error|code names/i.test(g.subject));
    // "Errors of `tasks.task.get`, `tasks.task.stopwatch` and `calendar.user.settings.set`: not shown" (spec line 196).
    for (const name of ["tasks.task.get", "tasks.task.stopwatch", "calendar.user.settings.set"]) {
      expect(find(spec, name)?.errors, name).toEqual([]);
      expect(find(spec, name)?.errorsOpen, name).not.toBeNull();
      expect(errorGap(spec, name), name).toBeDefined();
      const got = find(model, name);
      expect(got?.errors.length, name).toBeGreaterThan(0);
      for (const e of got?.errors ?? []) {
        expect(e.source.file, name).toMatch(/^spec-source\/platform-docs\/api-reference\//);
        // Each at its row of the page's error table: the row's line holds the code.
        const line = readFileSync(join(ROOT, e.source.file), "utf8").split("\n")[e.source.line - 1] ?? "";
        expect(line, name).toContain(e.code === "" ? "Empty value" : `\`${e.code}\``);
      }
      expect(got?.errorsOpen, name).toBeNull();
      expect(errorGap(model, name), name).toBeUndefined();
    }
    expect(find(model, "tasks.task.stopwatch")?.errors.map((e) => e.code)).toEqual(["0", "1048584"]);
    // "Error codes other than `ERROR_CHECK_FAILURE` for this method: not shown": the page's other codes follow the
    // spec's; the spec's errors without a code keep the list open.
    const pay = find(model, "sale.paysystem.settings.update");
    expect(pay?.errors.map((e) => e.code)).toEqual([...(find(spec, "sale.paysystem.settings.update")?.errors.map((e) => e.code) ?? []), "ACCESS_DENIED", "ERROR_HANDLER_NOT_FOUND"]);
    expect(errorGap(model, "sale.paysystem.settings.update")).toBeUndefined();
    expect(pay?.errorsOpen?.reason).toMatch(/without its code/);
    // placement.bind's gap asks for OPTIONS too: the page's codes come, the gap and the open list stay.
    expect(find(model, "placement.bind")?.errors.map((e) => e.code)).toEqual(expect.arrayContaining(["ERROR_PLACEMENT_MAX_COUNT", "EMPTY_ERROR_HANDLER_URL"]));
    expect(errorGap(model, "placement.bind")).toBeDefined();
    expect(find(model, "placement.bind")?.errorsOpen).not.toBeNull();
    // event.offline.clear's "Code names of the first three": its page adds no code, so it answers nothing.
    expect(find(model, "event.offline.clear")?.errors).toEqual(find(spec, "event.offline.clear")?.errors);
    expect(errorGap(model, "event.offline.clear")).toBeDefined();
    expect(report.answered).toContainEqual({ gap: "Errors of tasks.task.get, tasks.task.stopwatch, calendar.user.settings.set (tasks.task.stopwatch)", by: expect.stringMatching(/tasks-task-stop-watch\.md:\d+$/) });
    // A gap that asks for more than errors stays when a page gives codes (review: sign.b2e.personal.tail's "…: scope,
    // access and errors" with a page that lists one code dropped its access fact in silence).
    const tailGap = (m: Model) => m.knownGaps.find((g) => g.appliesTo.includes("method:legacy:sign.b2e.personal.tail"));
    expect(tailGap(spec)?.subject).toMatch(/scope, access and errors/);
    const tail = reference.methods.find((m) => m.name === "sign.b2e.personal.tail" && m.version === "legacy");
    expect(tail).toBeDefined();
    expect(find(spec, "sign.b2e.personal.tail")?.errorsOpen?.source).toEqual(tailGap(spec)?.source);
    const coded = { ...reference, methods: reference.methods.map((m) => (m === tail ? { ...m, errors: [{ status: 403, statuses: [403], statusClass: null, statusFrom: "method" as const, code: "WRONG_AUTH_TYPE", text: null, cause: null, source: m.source }], errorsOpen: null } : m)) };
    const again = mergeModels(spec, coded).model;
    expect(find(again, "sign.b2e.personal.tail")?.errors.map((e) => e.code)).toEqual(["WRONG_AUTH_TYPE"]);
    expect(tailGap(again)?.subject).toMatch(/scope, access and errors/);
    expect(find(again, "sign.b2e.personal.tail")?.errorsOpen).not.toBeNull();
  });

  it("fills the values of a parameter the spec leaves 'not shown' from the page's list; the gap keeps what the page does not answer", () => {
    const gapOf = (m: Model, name: string) => m.knownGaps.find((g) => g.appliesTo.includes(`method:legacy:${name}`) && /allowed values/i.test(g.subject));
    // telephony.externalCall.finish: the spec types STATUS_CODE `string` and leaves its values "not shown"; the page
    // lists them under "Possible values:". VOTE's page item gives five values in one item: not read, so it stays.
    const finish = find(model, "telephony.externalCall.finish");
    const status = finish?.params.find((p) => p.name === "STATUS_CODE");
    expect(find(spec, "telephony.externalCall.finish")?.params.find((p) => p.name === "STATUS_CODE")?.type).toEqual({ kind: "primitive", type: "string" });
    expect(status?.type).toMatchObject({ kind: "primitive", type: "string", enum: expect.arrayContaining(["200", "304", "603", "OTHER"]) });
    expect(status?.typeSource?.file).toBe(`${DOCS}/api-reference/telephony/telephony-external-call-finish.md`);
    expect(status?.source.file).toBe(SPEC);
    expect(gapOf(spec, "telephony.externalCall.finish")?.appliesTo).toContain("param:legacy:telephony.externalCall.finish:STATUS_CODE");
    expect(gapOf(model, "telephony.externalCall.finish")?.appliesTo).toEqual(["method:legacy:telephony.externalCall.finish", "param:legacy:telephony.externalCall.finish:VOTE"]);
    // A parameter the spec types with no gap on its values keeps the spec's type (ADD_TO_CHAT: `compare` says it).
    expect(finish?.params.find((p) => p.name === "ADD_TO_CHAT")?.type).toEqual(find(spec, "telephony.externalCall.finish")?.params.find((p) => p.name === "ADD_TO_CHAT")?.type);
    // sonet_group.update: the four flags' values come from the page; the gap stays for "the avatar-removal value and
    // the forced value", which no page row answers.
    expect(find(model, "sonet_group.update")?.params.find((p) => p.name === "INITIATE_PERMS")?.type).toEqual({ kind: "primitive", type: "string", enum: ["A", "E", "K"] });
    expect(gapOf(model, "sonet_group.update")?.appliesTo).toEqual(["method:legacy:sonet_group.update"]);
  });

  it("the spec's resources keep their names; the reference's of the same name are renamed wherever its methods name them", () => {
    const names = model.resources.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const r of spec.resources) expect(model.resources.find((x) => x.name === r.name)).toEqual(r);
  });
});

describe("generate --docs: the merged packages", () => {
  let result: GenerateResult;
  beforeAll(async () => {
    result = await generateSource(oneFile(SPEC, specText), { ...GEN, specPath: SPEC, docs, format: false });
  }, 120_000);
  const file = (path: string) => result.files.find((f) => f.path === path)?.contents ?? "";

  it("names each fact's input: x-source in OpenAPI, @see in the declarations; the spec ships, the pages do not", async () => {
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const v3 = JSON.parse(file("openapi/openapi.v3.json")) as { paths: Record<string, Record<string, { "x-source"?: Record<string, string> }>> };
    expect(v3.paths["/tasks.task.get"]?.["post"]?.["x-source"]).toMatchObject({ file: SPEC, input: "spec" });
    expect(v3.paths["/tasks.task.access.get"]?.["post"]?.["x-source"]).toEqual({ file: `${DOCS}/api-reference/tasks/tasks-task-access-get.md`, input: "reference" });
    // A spec method whose result a page answers: the operation is the spec's, its success response the page's.
    const send = v3.paths["/tasks.task.chat.message.send"]?.["post"] as { "x-source"?: unknown; responses?: Record<string, { "x-source"?: unknown }> } | undefined;
    expect(send?.["x-source"]).toMatchObject({ file: SPEC, input: "spec" });
    expect(send?.responses?.["200"]?.["x-source"]).toEqual({ file: `${DOCS}/api-reference/tasks/tasks-task-chat-message-send.md`, input: "reference" });
    // Scopes and parameter types read from a page for a spec method name their input beside them.
    expect((send as Record<string, unknown> | undefined)?.["x-scopes-source"]).toEqual({ file: `${DOCS}/api-reference/tasks/tasks-task-chat-message-send.md`, input: "reference" });
    expect((v3.paths["/tasks.task.get"]?.["post"] as Record<string, unknown> | undefined)?.["x-scopes-source"]).toEqual({ file: `${DOCS}/api-reference/tasks/tasks-task-get-rest-v3.md`, input: "reference" });
    const legacy = JSON.parse(file("openapi/openapi.legacy.json")) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    expect(legacy.paths["/tasks.task.stopwatch"]?.["post"]?.["x-scopes-source"]).toBeUndefined();
    const props = (legacy.paths["/sonet_group.update"]?.["post"] as { requestBody: { content: Record<string, { schema: { properties: Record<string, Record<string, unknown>> } }> } }).requestBody.content["application/json"]?.schema.properties;
    expect(props?.["VISIBLE"]?.["x-source"]).toEqual({ file: `${DOCS}/api-reference/sonet-group/sonet-group-update.md`, input: "reference" });
    expect(props?.["NAME"]?.["x-source"]).toBeUndefined();
    // Errors a page adds where the spec leaves them open: each names its input in x-errors; the spec's name none.
    const payErrors = legacy.paths["/sale.paysystem.settings.update"]?.["post"]?.["x-errors"] as Array<{ code: string | null; "x-source"?: unknown }>;
    expect(payErrors.find((e) => e.code === "ERROR_HANDLER_NOT_FOUND")?.["x-source"]).toEqual({ file: `${DOCS}/api-reference/pay-system/sale-pay-system-settings-update.md`, input: "reference" });
    expect(payErrors.find((e) => e.code === "ERROR_CHECK_FAILURE")?.["x-source"]).toBeUndefined();
    // The envelope's paging members, read from the pages beside the spec's envelope, say so (D29).
    const taskList = legacy.paths["/tasks.task.list"]?.["post"] as { responses: Record<string, { content: Record<string, { schema: { properties: Record<string, Record<string, unknown>> } }> }> };
    const envelope = taskList.responses["200"]?.content["application/json"]?.schema.properties;
    expect(envelope?.["total"]).toMatchObject({ type: "integer", "x-source": { input: "reference" } });
    expect(envelope?.["time"]?.["x-source"]).toBeUndefined();
    expect(file("types/common.d.ts")).toMatch(/\* Member read from the platform's reference\.\n {3}\*\n {3}\* @see https:\/\/apidocs\.bitrix24\.com\/api-reference\/.+\.html\n {3}\*\/\n {2}total\?: number;/);
    // An empty code reads as one (review: "Codes `` read …").
    expect(file("types/areas/calendar.d.ts")).toContain("Codes `\"\"` (empty) read from the platform's reference.");
    expect(file("types/areas/tasks.d.ts")).toMatch(/ \* Codes `0`, `1048584` read from the platform's reference\.\n \*\n \* @see \.\.\/spec\/collaboration-platform-api\.md#[\w-]+\n \* @see https:\/\/apidocs\.bitrix24\.com\/api-reference\/tasks\/user-actions\/tasks-task-stop-watch\.html\n \*\/\nexport type TasksTaskStopwatchErrorCode = "0" \| "1048584";/);
    // D29: lines live in model.json only; no declaration, document or description carries a page's line.
    for (const f of result.files) if (f.path !== "model.json") expect(f.contents.match(/\.md:\d+/)?.[0], f.path).toBeUndefined();
    // The 3.0 error body: typed from the reference's include, which says so; the spec's alone keeps it unknown.
    const common = file("types/common.d.ts");
    expect(common).toMatch(/\* Body of 3\.0 error responses\.\n \* Members read from the platform's reference\.\n \*\/\nexport interface V3ErrorBody \{\n  error\?: \{/);
    expect(common).toMatch(/validation\?: Array<\{/);
    expect((v3 as unknown as { components: { schemas: Record<string, Record<string, unknown>> } }).components.schemas["V3Error"]?.["x-source"]).toEqual({ file: `${DOCS}/_includes/error-info-v3.md`, input: "reference" });
    expect(readFileSync(join(ROOT, "output/types/common.d.ts"), "utf8")).toContain("export type V3ErrorBody = unknown;");
    // The list of scopes: a type of its codes that says where it was read, and the documents' x-scope-list.
    expect(common).toMatch(/ \* The list read from the platform's reference\.\n \*\n \* @see https:\/\/apidocs\.bitrix24\.com\/api-reference\/scopes\/permissions\.html\n \*\/\nexport type ScopeCode =\n  \| "ai_admin"/);
    const list = (v3 as unknown as Record<string, unknown>)["x-scope-list"] as Array<{ code: string; deprecated?: boolean }>;
    expect(list.find((s) => s.code === "tasks")).toMatchObject({ deprecated: true });
    expect((v3 as unknown as Record<string, unknown>)["x-scope-list-source"]).toEqual({ file: `${DOCS}/api-reference/scopes/permissions.md`, input: "reference" });
    expect(readFileSync(join(ROOT, "output/types/common.d.ts"), "utf8")).not.toContain("ScopeCode");
    const sonet = file("types/areas/sonet_group.d.ts");
    expect(sonet).toMatch(/\* visibility in the list\.\n\s+\* Type read from the platform's reference\.\n\s+\*\n\s+\* @see \.\.\/spec\/collaboration-platform-api\.md#[\w-]+\n\s+\* @see https:\/\/apidocs\.bitrix24\.com\/api-reference\/sonet-group\/sonet-group-update\.html\n/);
    expect(file("types/areas/tasks.d.ts")).toContain("Scope: `tasks`.\n   * Scope read from the platform's reference.");
    expect(file("client/areas/tasks/index.d.ts")).toContain("Scope read from the platform's reference.");
    const get = v3.paths["/tasks.task.get"]?.["post"] as { responses?: Record<string, { "x-source"?: unknown }> } | undefined;
    expect(get?.responses?.["200"]).toBeDefined();
    expect(get?.responses?.["200"]?.["x-source"]).toBeUndefined();
    await expect(SwaggerParser.validate(JSON.parse(file("openapi/openapi.legacy.json")) as OpenAPIV3.Document)).resolves.toBeTruthy();
    expect(result.files.some((f) => f.path === "types/spec/collaboration-platform-api.md")).toBe(true);
    expect(result.files.some((f) => f.path.includes("platform-docs"))).toBe(false);
    expect(file("types/areas/tasks.d.ts")).toContain("@see ../spec/collaboration-platform-api.md#");
    expect(file("types/areas/crm.d.ts")).toMatch(/@see https:\/\/apidocs\.bitrix24\.com\/api-reference\/crm\/[\w/-]+\.html/);
  });

  it("reports the merged model's methods by input and the gaps the pages answered, in the result and on stderr", () => {
    expect(result.merge?.methods).toEqual(report.methods);
    expect(result.merge?.gaps).toEqual({ spec: spec.knownGaps.length, left: model.knownGaps.length });
    expect(model.knownGaps.length).toBeLessThanOrEqual(spec.knownGaps.length - 10);
    const out = mkdtempSync(join(tmpdir(), "crc-merged-"));
    try {
      const run = spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), "generate", "--docs", "test/fixtures/reference-mini", "--out", out], { cwd: ROOT, encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/one model of the spec and the reference: \d+ methods the spec describes \(0 of them on pages too, the spec's facts standing\), 7 from the pages; \d+ of the spec's \d+ "not shown" gaps answered by pages/);
      const alone = spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), "generate", "--out", out], { cwd: ROOT, encoding: "utf8" });
      expect(alone.stderr).not.toContain("one model of the spec and the reference");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);

  it("the CLI refuses --docs that is no folder", () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), ...args], { cwd: ROOT, encoding: "utf8" });
    const missing = run("generate", "--check", "--docs", "nowhere");
    expect(missing.status).toBe(3);
    expect(missing.stderr).toContain("docs folder not found: nowhere");
    expect(run("lint", "--docs", "nowhere").stderr).toContain("docs folder not found: nowhere");
  });

  it("lint --docs reads the reference beside the spec: its warnings at their pages, with the summary", () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), ...args], { cwd: ROOT, encoding: "utf8" });
    const alone = run("lint", "--format", "json");
    const both = run("lint", "--docs", "test/fixtures/reference-mini", "--format", "json");
    expect(both.status, both.stderr).toBe(0);
    const files = (out: string) => new Set((JSON.parse(out) as Array<{ file: string }>).map((d) => d.file.split("/").slice(0, 3).join("/")));
    expect([...files(alone.stdout)].some((f) => f.startsWith("test/fixtures/reference-mini"))).toBe(false);
    expect([...files(both.stdout)].some((f) => f.startsWith("test/fixtures/reference-mini"))).toBe(true);
    expect(run("lint", "--docs", "test/fixtures/reference-mini").stderr).toMatch(/warning/);
  });
});
