import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Change, diffModels, samePositionsAside } from "../../generator/diff/index.js";
import { formatDiff } from "../../generator/diff/format.js";
import { CHANGE_RULES, type ChangeCode } from "../../generator/diff/rules.js";
import type { Model } from "../../generator/model/types.js";
import { SPEC_TEXT, modelOf } from "../helpers.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.js";

/**
 * `collab-rest-codegen diff` (issue 7): one row per change code, an edit of the real spec in, the exact change out
 * (its code, its severity per audience, and both positions, checked against the text they point at).
 */

const FILES = { from: "old.md", to: "new.md" };
const BASE = modelOf(SPEC_TEXT);

function once(s: string, find: string | RegExp, replace: string): string {
  const out = s.replace(find, replace);
  if (out === s) throw new Error(`edit did not apply: ${String(find)}`);
  return out;
}

interface Row {
  code: ChangeCode;
  /** The new spec from the old. */
  edit: (s: string) => string;
  /** For a change best made backwards: the old spec is this edit of the real spec, and the new one the real spec. */
  reverse?: boolean;
  method?: string;
  resource?: string;
  /** What the change's positions point at: the text at `from` in the old spec and at `to` in the new one. */
  from: string | null;
  to: string | null;
  /** Every code of the diff, in order, when the edit brings more than the row's change. */
  all?: ChangeCode[];
}

const ENUM3 = (s: string) => once(s, "- `event_type` string `online` (default) or `offline`.", "- `event_type` string `online` (default), `offline` or `hybrid`.");
const NO_GET_RULE = (s: string) => once(s, "4. In 3.0 methods without parameters accept GET or POST.\n", "");

const ROWS: Row[] = [
  { code: "method-added", edit: (s) => once(s, "**tasks.task.getaccess**.", "**tasks.task.pin**. Scope `task`. Any user. Pins a task. `id`* integer. Result: boolean.\n\n**tasks.task.getaccess**."), method: "tasks.task.pin", from: null, to: "tasks.task.pin**" },
  { code: "method-removed", edit: (s) => once(s, /\*\*telephony\.externalCall\.show\*\*[^\n]*\n\n/, ""), method: "telephony.externalCall.show", from: "telephony.externalCall.show**", to: null },
  { code: "method-named-added", edit: (s) => once(s, "`messageservice.sender.list`.", "`messageservice.sender.list`, `event.offline.purge`."), method: "event.offline.purge", from: null, to: "`event.offline.purge`", all: ["method-named-added", "gap-changed", "gap-changed"] },
  // (`messageservice.sender.list` is also named in passing, "from `messageservice.sender.list`": still named.)
  { code: "method-named-removed", edit: (s) => once(s, ", `placement.list`,", ","), method: "placement.list", from: "`placement.list`", to: null, all: ["method-named-removed", "gap-changed", "gap-changed"] },
  { code: "named-to-described", edit: (s) => once(s, "**event.offline.clear**.", "**feature.get**. Scope: base. Any user. `CODE`* string. Result: boolean.\n\n**event.offline.clear**."), method: "feature.get", from: "`feature.get`", to: "feature.get**" },
  { code: "described-to-named", edit: (s) => once(once(s, /\*\*telephony\.externalCall\.show\*\*[^\n]*\n\n/, ""), "`messageservice.sender.list`.", "`messageservice.sender.list`, `telephony.externalCall.show`."), method: "telephony.externalCall.show", from: "telephony.externalCall.show**", to: "`telephony.externalCall.show`. Their", all: ["described-to-named", "gap-changed", "gap-changed"] },
  { code: "method-deprecated", edit: (s) => once(s, "**tasks.task.stopwatch**.", "**tasks.task.stopwatch** (deprecated; use `tasks.task.get`)."), method: "tasks.task.stopwatch", from: "tasks.task.stopwatch**", to: "tasks.task.stopwatch**" },
  { code: "method-undeprecated", edit: (s) => once(s, "**task.comment.add** (deprecated; use `tasks.task.chat.message.send`).", "**task.comment.add**."), method: "task.comment.add", from: "task.comment.add**", to: "task.comment.add**" },
  { code: "alias-added", edit: (s) => once(s, "(synonym `documentation`)", "(synonyms `documentation`, `docs`)"), method: "rest.documentation.openapi", from: "rest.documentation.openapi**", to: "rest.documentation.openapi**" },
  { code: "alias-removed", edit: (s) => once(s, " (synonym `documentation`)", ""), method: "rest.documentation.openapi", from: "rest.documentation.openapi**", to: "rest.documentation.openapi**" },
  { code: "http-method-removed", edit: (s) => once(NO_GET_RULE(s), "no parameters, GET or POST.", "no parameters, POST."), method: "rest.documentation.openapi", from: "rest.documentation.openapi**", to: "rest.documentation.openapi**", all: ["http-method-removed", "http-method-removed", "note-changed"] },
  { code: "http-method-added", reverse: true, edit: (s) => once(NO_GET_RULE(s), "no parameters, GET or POST.", "no parameters, POST."), method: "rest.documentation.openapi", from: "rest.documentation.openapi**", to: "rest.documentation.openapi**", all: ["http-method-added", "http-method-added", "note-changed"] },
  { code: "param-added-required", edit: (s) => once(s, "`PHONE_NUMBER`* string.", "`PHONE_NUMBER`* string. `ENTITY_TYPE`* string."), method: "telephony.externalCall.searchCrmEntities", from: null, to: "`ENTITY_TYPE`*" },
  { code: "param-added", edit: (s) => once(s, "`PHONE_NUMBER`* string.", "`PHONE_NUMBER`* string. `ENTITY_TYPE` string."), method: "telephony.externalCall.searchCrmEntities", from: null, to: "`ENTITY_TYPE` string" },
  { code: "param-removed", edit: (s) => once(s, /- `auth_connector` string, source key[^\n]*\n/, ""), method: "event.bind", from: "`auth_connector` string, source key", to: null },
  { code: "param-became-required", edit: (s) => once(s, "`NAME` string; `CRM_AUTO_CREATE`", "`NAME`* string; `CRM_AUTO_CREATE`"), method: "telephony.externalLine.add", from: "`NAME` string;", to: "`NAME`* string;" },
  { code: "param-became-optional", edit: (s) => once(s, "`PHONE_NUMBER`* string.", "`PHONE_NUMBER` string."), method: "telephony.externalCall.searchCrmEntities", from: "`PHONE_NUMBER`*", to: "`PHONE_NUMBER` string" },
  { code: "param-type-changed", edit: (s) => once(s, "`PHONE_NUMBER`* string.", "`PHONE_NUMBER`* integer."), method: "telephony.externalCall.searchCrmEntities", from: "`PHONE_NUMBER`* string", to: "`PHONE_NUMBER`* integer" },
  { code: "param-type-widened", edit: (s) => once(s, "`PHONE_NUMBER`* string.", "`PHONE_NUMBER`*."), method: "telephony.externalCall.searchCrmEntities", from: "`PHONE_NUMBER`* string", to: "`PHONE_NUMBER`*." },
  { code: "param-type-narrowed", reverse: true, edit: (s) => once(s, "`PHONE_NUMBER`* string.", "`PHONE_NUMBER`*."), method: "telephony.externalCall.searchCrmEntities", from: "`PHONE_NUMBER`*.", to: "`PHONE_NUMBER`* string" },
  { code: "param-default-changed", edit: (s) => once(s, "`CRM_AUTO_CREATE` string `Y` or `N`, default `Y`", "`CRM_AUTO_CREATE` string `Y` or `N`, default `N`"), method: "telephony.externalLine.add", from: "`CRM_AUTO_CREATE`", to: "`CRM_AUTO_CREATE`", all: ["param-default-changed", "description-changed"] },
  { code: "param-deprecated", edit: (s) => once(s, "`DURATION` (seconds)", "`DURATION` (seconds, obsolete)"), method: "telephony.externalCall.finish", from: "`DURATION`", to: "`DURATION`", all: ["param-deprecated", "description-changed"] },
  // The error `Value must be one of {online|offline}` answers `event_type` only while its values are those two: a
  // third value unlinks it, a change of the error's reading (description-changed).
  { code: "enum-value-added", edit: ENUM3, method: "event.bind", from: "`event_type` string", to: "`event_type` string", all: ["enum-value-added", "description-changed"] },
  { code: "enum-value-removed", reverse: true, edit: ENUM3, method: "event.bind", from: "`event_type` string", to: "`event_type` string", all: ["enum-value-removed", "description-changed"] },
  { code: "constraint-added", reverse: true, edit: (s) => once(s, " At least one of `RECORD_URL`, `FILENAME` is required.", ""), method: "telephony.externalCall.attachRecord", from: null, to: "At least one of `RECORD_URL`" },
  { code: "constraint-removed", edit: (s) => once(s, " At least one of `RECORD_URL`, `FILENAME` is required.", ""), method: "telephony.externalCall.attachRecord", from: "At least one of `RECORD_URL`", to: null },
  { code: "result-added", reverse: true, edit: (s) => once(s, " Result `true`.", ""), method: "telephony.externalCall.show", from: null, to: "Result `true`" },
  { code: "result-removed", edit: (s) => once(s, " Result `true`.", ""), method: "telephony.externalCall.show", from: "Result `true`", to: null },
  { code: "result-key-changed", edit: (s) => once(s, "`result.item` holds the task", "`result.task` holds the task"), method: "tasks.task.get", all: ["result-key-changed", "description-changed"], from: "`result.item` holds", to: "`result.task` holds" },
  { code: "result-type-changed", edit: (s) => once(s, "Result `true`.", "Result: integer."), method: "telephony.externalCall.show", from: "Result `true`", to: "Result: integer", all: ["result-type-changed", "description-changed"] },
  { code: "result-field-added", edit: (s) => once(s, "| COMMENT | string or null |\n", "| COMMENT | string or null |\n| CALL_NOTE | string, a note on the call |\n"), resource: "ExternalCallStatisticsRecord", from: null, to: "CALL_NOTE" },
  { code: "result-field-added-optional", edit: (s) => once(s, "| COMMENT | string or null |\n", "| COMMENT | string or null |\n| CALL_NOTE | string or null |\n"), resource: "ExternalCallStatisticsRecord", from: null, to: "CALL_NOTE" },
  { code: "result-field-removed", edit: (s) => once(s, "| COMMENT | string or null |\n", ""), resource: "ExternalCallStatisticsRecord", from: "COMMENT", to: null },
  { code: "result-field-became-optional", edit: (s) => once(s, "| CRM_ENTITY_ID | integer | |", "| CRM_ENTITY_ID | integer or null | |"), resource: "CrmEntityFoundByPhone", from: "CRM_ENTITY_ID", to: "CRM_ENTITY_ID" },
  { code: "result-field-became-required", edit: (s) => once(s, "| COMMENT | string or null |", "| COMMENT | string |"), resource: "ExternalCallStatisticsRecord", from: "COMMENT", to: "COMMENT" },
  { code: "result-type-widened", edit: (s) => once(s, "| CRM_ENTITY_ID | integer | |", "| CRM_ENTITY_ID | not shown | |"), resource: "CrmEntityFoundByPhone", from: "CRM_ENTITY_ID", to: "CRM_ENTITY_ID", all: ["description-changed", "result-type-widened"] },
  { code: "result-type-narrowed", reverse: true, edit: (s) => once(s, "| CRM_ENTITY_ID | integer | |", "| CRM_ENTITY_ID | not shown | |"), resource: "CrmEntityFoundByPhone", from: "CRM_ENTITY_ID", to: "CRM_ENTITY_ID", all: ["description-changed", "result-type-narrowed"] },
  { code: "result-enum-value-added", edit: (s) => once(s, "LEAD (only an active lead available to the current user) or COMPANY |", "LEAD (only an active lead available to the current user), DEAL or COMPANY |"), resource: "CrmEntityFoundByPhone", from: "CRM_ENTITY_TYPE", to: "CRM_ENTITY_TYPE", all: ["description-changed", "result-enum-value-added"] },
  { code: "result-enum-value-removed", edit: (s) => once(s, "CONTACT, LEAD (only an active lead available to the current user) or COMPANY |", "CONTACT or COMPANY |"), resource: "CrmEntityFoundByPhone", from: "CRM_ENTITY_TYPE", to: "CRM_ENTITY_TYPE", all: ["description-changed", "result-enum-value-removed"] },
  { code: "resource-added", edit: (s) => once(s, "### Allowed actions (result of", "### Comment\n\n| Field | Type | Meaning |\n|---|---|---|\n| ID | integer | id |\n\n### Allowed actions (result of"), resource: "Comment", from: null, to: "### Comment" },
  { code: "resource-removed", edit: (s) => once(s, /- Signed document \(`sign\.b2e\.personal\.tail` item\)[^\n]*\n/, ""), resource: "SignedDocument", from: "Signed document", to: null, all: ["resource-removed", "result-removed"] },
  { code: "error-added", edit: (s) => once(s, "`PHONE_NUMBER is empty`; `CRM is not installed.`", "`PHONE_NUMBER is empty`; `CRM is not installed.`; HTTP 403 `ACCESS_DENIED`."), method: "telephony.externalCall.searchCrmEntities", from: null, to: "HTTP 403 `ACCESS_DENIED`" },
  { code: "error-removed", edit: (s) => once(s, "; 403 `WRONG_LICENSE` (`auth_connector` on an unsupported plan).", "."), method: "event.bind", from: "403 `WRONG_LICENSE`", to: null },
  { code: "error-status-changed", edit: (s) => once(s, "- Errors: 400 `ERROR_EVENT_NOT_FOUND`;", "- Errors: 404 `ERROR_EVENT_NOT_FOUND`;"), method: "event.bind", from: "400 `ERROR_EVENT_NOT_FOUND`", to: "404 `ERROR_EVENT_NOT_FOUND`" },
  { code: "error-text-changed", edit: (s) => once(s, "(`Access denied!`, caller not administrator)", "(`Access is denied`, caller not administrator)"), method: "placement.get", from: "`ACCESS_DENIED` (`Access denied!`", to: "`ACCESS_DENIED` (`Access is denied`" },
  { code: "errors-opened", edit: (s) => once(s, "Errors of `tasks.task.get`, `tasks.task.stopwatch` and", "Errors of `tasks.task.get`, `tasks.task.stopwatch`, `tasks.task.getaccess` and"), method: "tasks.task.getaccess", from: "tasks.task.getaccess**", to: "Errors of `tasks.task.get`", all: ["errors-opened", "gap-changed", "gap-changed"] },
  { code: "errors-closed", edit: (s) => once(s, "Errors of `tasks.task.get`, `tasks.task.stopwatch` and", "Errors of `tasks.task.get` and"), method: "tasks.task.stopwatch", from: "Errors of `tasks.task.get`", to: "tasks.task.stopwatch**", all: ["errors-closed", "gap-changed", "gap-changed"] },
  { code: "catalogue-error-added", edit: (s) => once(s, "| 403 | PORTAL_DELETED | Portal was deleted | public part of the site closed |", "| 403 | PORTAL_DELETED | Portal was deleted | public part of the site closed |\n| 402 | PAYMENT_REQUIRED | Payment required | plan expired |"), from: null, to: "PAYMENT_REQUIRED" },
  { code: "catalogue-error-removed", edit: (s) => once(s, "| 403 | PORTAL_DELETED | Portal was deleted | public part of the site closed |\n", ""), from: "PORTAL_DELETED", to: null },
  { code: "catalogue-error-changed", edit: (s) => once(s, "| 403 | PORTAL_DELETED | Portal was deleted |", "| 410 | PORTAL_DELETED | Portal was deleted |"), from: "PORTAL_DELETED", to: "PORTAL_DELETED" },
  { code: "scope-changed", edit: (s) => once(s, "**telephony.externalCall.show**. Scope `telephony`.", "**telephony.externalCall.show**. Scope `call`."), method: "telephony.externalCall.show", from: "telephony.externalCall.show**", to: "telephony.externalCall.show**" },
  { code: "access-changed", edit: (s) => once(s, "**telephony.externalCall.show**. Scope `telephony`. Any user.", "**telephony.externalCall.show**. Scope `telephony`. Administrator."), method: "telephony.externalCall.show", from: "telephony.externalCall.show**", to: "telephony.externalCall.show**" },
  { code: "app-context-changed", edit: (s) => once(s, "**telephony.externalCall.show**. Scope `telephony`. Any user.", "**telephony.externalCall.show**. Scope `telephony`. Any user. Application context only."), method: "telephony.externalCall.show", from: "telephony.externalCall.show**", to: "telephony.externalCall.show**" },
  { code: "idempotency-changed", edit: (s) => once(s, "; header `Idempotency-Key` honored.", "."), method: "tasks.task.add", from: "tasks.task.add**", to: "tasks.task.add**" },
  { code: "envelope-changed", edit: (s) => once(s, "| operating | number | accumulated execution time of the method |", "| operating | number | accumulated execution time of the method |\n| region | string | data center |"), from: "### Response envelope", to: "### Response envelope" },
  { code: "addressing-changed", edit: (s) => once(s, "| 3.0, application | {base_url}/rest/api/{method};", "| 3.0, application | {base_url}/rest/api/v3/{method};"), from: null, to: "3.0, application", all: ["addressing-changed", "addressing-changed"] },
  { code: "limit-changed", edit: (s) => once(s, "| Idempotency response retention | 24 hours | 3.0 |", "| Idempotency response retention | 48 hours | 3.0 |"), from: "Idempotency response retention", to: "Idempotency response retention" },
  { code: "described-in-other-area", edit: (s) => once(once(s, /\*\*placement\.get\*\*[^\n]*\n[^\n]*\n\n/, ""), "### Events\n", `### Events\n\n${/\*\*placement\.get\*\*[^\n]*\n[^\n]*\n/.exec(s)?.[0] ?? ""}`), method: "placement.get", from: "placement.get**", to: "placement.get**" },
  { code: "description-changed", edit: (s) => once(s, "Shows the call card to a user or users.", "Shows the call card to one or more users."), method: "telephony.externalCall.show", from: "telephony.externalCall.show**", to: "telephony.externalCall.show**" },
  { code: "note-changed", edit: (s) => once(s, "Neither replaces the other.", "Neither one replaces the other."), from: "Two API versions run", to: "Two API versions run" },
  { code: "gap-changed", edit: (s) => once(s, "Lifetime of an access token: not shown.\n", ""), from: "Lifetime of an access token", to: null },
  { code: "title-changed", edit: (s) => once(s, "# Collaboration Platform REST API Specification", "# Collaboration Platform REST API"), from: "Collaboration Platform", to: "Collaboration Platform" },
];

/** The text at a position, from its column to the end of its line. */
function textAt(spec: string, p: { line: number; column: number }): string {
  return (spec.split("\n")[p.line - 1] ?? "").slice(p.column - 1);
}

describe("diff: one row per change code", () => {
  it("the table covers every code but field-deprecated, which the readers cannot produce from text yet, the events, which only the reference's pages give (their own tests below), and the runtime's exports, which a generator upgrade changes, not a spec (test/diff/runtime-api.test.ts)", () => {
    const covered = new Set(ROWS.map((r) => r.code));
    expect(Object.keys(CHANGE_RULES).filter((c) => !covered.has(c as ChangeCode)).sort()).toEqual(["event-added", "event-payload-changed", "event-payload-member-added", "event-removed", "field-deprecated", "placement-added", "placement-option-added", "placement-options-changed", "placement-removed", "runtime-export-added", "runtime-export-changed", "runtime-export-removed", "scope-listed", "scope-unlisted"]);
  });

  it.each(ROWS)("$code", (row) => {
    const edited = row.edit(SPEC_TEXT);
    const [oldText, newText] = row.reverse ? [edited, SPEC_TEXT] : [SPEC_TEXT, edited];
    const old = row.reverse ? modelOf(oldText) : BASE;
    const report = diffModels(old, modelOf(newText), FILES);
    expect(report.changes.map((c) => c.code)).toEqual(row.all ?? [row.code]);
    const change = report.changes.find((c) => c.code === row.code) as Change;
    const rule = CHANGE_RULES[row.code];
    expect(change.audiences).toEqual({ ...(rule.client ? { client: rule.client } : {}), ...(rule.server ? { server: rule.server } : {}) });
    expect(change.method).toBe(row.method ?? null);
    if (row.resource) expect(change.resource).toBe(row.resource);
    if (row.from === null) expect(change.from).toBeNull();
    else {
      expect(change.from?.file).toBe("old.md");
      expect(textAt(oldText, change.from ?? { line: 0, column: 0 })).toContain(row.from);
    }
    if (row.to === null) expect(change.to).toBeNull();
    else {
      expect(change.to?.file).toBe("new.md");
      expect(textAt(newText, change.to ?? { line: 0, column: 0 })).toContain(row.to);
    }
    // A removal is annotated in the new spec where the thing was held: inside the file.
    expect(change.at.file).toBe("new.md");
    expect(change.at.line).toBeLessThanOrEqual(newText.split("\n").length);
    const expectedBump = report.changes.some((c) => c.severity === "breaking") ? "major" : report.changes.some((c) => c.severity === "minor") ? "minor" : "patch";
    expect(report.bump).toBe(expectedBump);
  });

  it("field-deprecated: a result field marked deprecated (the model as a documentation reader would give it)", () => {
    const next = structuredClone(BASE) as Model;
    const record = next.resources.find((r) => r.name === "ExternalCallStatisticsRecord");
    const field = record?.type.kind === "object" ? record.type.members.find((m) => m.name === "COMMENT") : undefined;
    if (!field) throw new Error("no COMMENT field");
    field.deprecated = { text: "deprecated" };
    const report = diffModels(BASE, next, FILES);
    expect(report.changes.map((c) => [c.code, c.resource, c.audiences])).toEqual([["field-deprecated", "ExternalCallStatisticsRecord", { client: "minor", server: "patch" }]]);
  });

  it("the audiences of the issue's examples: a new required parameter breaks callers, a new result field must be returned by handlers", () => {
    expect(CHANGE_RULES["param-added-required"]).toMatchObject({ client: "breaking", server: "minor" });
    expect(CHANGE_RULES["param-added"]).toMatchObject({ client: "minor", server: "minor" });
    expect(CHANGE_RULES["result-field-removed"]).toMatchObject({ client: "breaking" });
    expect(CHANGE_RULES["result-field-added"]).toMatchObject({ client: "minor", server: "breaking" });
    expect(CHANGE_RULES["method-added"]).toMatchObject({ client: "minor", server: "minor" });
    expect(CHANGE_RULES["description-changed"]).toMatchObject({ client: "patch", server: "patch" });
  });

  it("moving a section changes positions only: no change", () => {
    const tasks = /### Tasks\n[\s\S]*?(?=### Telephony)/.exec(SPEC_TEXT)?.[0] ?? "";
    const moved = once(once(SPEC_TEXT, tasks, ""), "### Placements (widgets)", `${tasks}### Placements (widgets)`);
    expect(diffModels(BASE, modelOf(moved), FILES)).toEqual({ bump: "none", changes: [] });
  });

  it("the README documents every code with its severities, as the rule table has them", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const [code, rule] of Object.entries(CHANGE_RULES)) {
      const line = readme.split("\n").find((l) => l.startsWith(`| \`${code}\` |`));
      expect(line, code).toBeDefined();
      const cells = (line ?? "").split(/(?<!\\)\|/).map((c) => c.trim());
      expect(cells[3], code).toBe(rule.client ?? "-");
      expect(cells[4], code).toBe(rule.server ?? "-");
    }
  });
});

describe("diff: formats", () => {
  const edited = once(once(SPEC_TEXT, "`PHONE_NUMBER`* string.", "`PHONE_NUMBER`* string. `ENTITY_TYPE`* string."), "Shows the call card to a user or users.", "Shows the call card | to one or more users.");
  const report = diffModels(BASE, modelOf(edited), FILES);

  it("text: positions first, one change a line, then the bump", () => {
    const lines = formatDiff(report, "text").trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^new\.md:\d+:\d+: patch description-changed: the description of `telephony\.externalCall\.show` changed \[client patch, server patch\]$/);
    expect(lines[1]).toMatch(/^new\.md:\d+:\d+: breaking param-added-required: `telephony\.externalCall\.searchCrmEntities` has a new required parameter `ENTITY_TYPE` \[client breaking, server minor\]$/);
    expect(lines[2]).toBe("bump: major (1 breaking, 0 minor, 1 patch)");
  });

  it("json: the contract's object", () => {
    const json = JSON.parse(formatDiff(report, "json")) as { bump: string; changes: Array<Record<string, unknown>> };
    expect(json.bump).toBe("major");
    expect(Object.keys(json.changes[1] ?? {})).toEqual(["code", "severity", "audiences", "method", "version", "resource", "message", "from", "to"]);
    expect(json.changes[1]).toMatchObject({ code: "param-added-required", severity: "breaking", audiences: { client: "breaking", server: "minor" }, method: "telephony.externalCall.searchCrmEntities", from: null, to: { file: "new.md" } });
  });

  it("markdown: a table whose cells escape the spec's pipes", () => {
    const md = formatDiff(report, "markdown");
    expect(md).toContain("### Spec changes: **major** version bump");
    expect(md).toContain("| Severity | Code | Change | Client | Server | Old | New |");
    const rows = md.split("\n").filter((l) => l.startsWith("| breaking") || l.startsWith("| patch"));
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.replace(/\\\|/g, "").split("|")).toHaveLength(9);
  });

  it("github: breaking changes as errors on the new spec's lines, wording as notices", () => {
    const out = formatDiff(report, "github", { githubPath: (f) => `docs/${f}` }).trimEnd().split("\n");
    expect(out[0]).toMatch(/^::notice file=docs\/new\.md,line=\d+,col=\d+,title=description-changed \(patch\)::/);
    expect(out[1]).toMatch(/^::error file=docs\/new\.md,line=\d+,col=\d+,title=param-added-required \(breaking\)::/);
    expect(out[2]).toBe("::notice::bump: major (1 breaking, 0 minor, 1 patch)");
  });
});

describe("diff: properties", () => {
  it("positions are no change: every position moved, the member differs (which the moved mentions reach) report nothing", () => {
    // Every `{file, line, column}` moved: methods whose only difference is their `source` take the diff's shortcut,
    // and those whose mentions moved too are compared member by member, which must find nothing either.
    const moved = JSON.parse(JSON.stringify(BASE), (_k, v: unknown) =>
      v && typeof v === "object" && "file" in v && "line" in v && "column" in v ? { ...(v as { line: number }), line: (v as { line: number }).line + 7 } : v) as Model;
    expect(moved.methods.filter((m) => m.mentions.length > 0).length).toBeGreaterThan(3);
    expect(diffModels(BASE, moved, FILES).changes).toEqual([]);
  });

  it("a changed type is never said as 'now X (was X)': the same few words say the change is inside them", () => {
    const withResult = (type: string) => {
      const m = JSON.parse(JSON.stringify(BASE)) as Model;
      const method = m.methods.find((x) => x.described && x.result);
      if (!method?.result) throw new Error("no method with a result");
      const at = method.result.source;
      const field = { name: "a", type: { kind: "primitive", type }, required: true, nullable: false, description: "", source: at };
      method.result.type = { kind: "union", options: [{ kind: "object", members: [field] }, { kind: "null" }] } as never;
      return { model: m, name: method.name };
    };
    const before = withResult("integer");
    const after = withResult("string");
    const changes = diffModels(before.model, after.model, FILES).changes.filter((c) => c.method === before.name);
    expect(changes.map((c) => c.message)).toEqual([expect.stringMatching(/changed inside an object of `a` or null \(a member's or an option's type\)$/)]);
  });

  it("samePositionsAside: equal but for `source` keys, at any depth; any other difference counts", () => {
    const at = (line: number) => ({ file: "a.md", line, column: 1 });
    expect(samePositionsAside({ a: [1, { source: at(1), b: "x" }], source: at(2) }, { a: [1, { source: at(9), b: "x" }], source: at(3) })).toBe(true);
    expect(samePositionsAside({ a: [1, { b: "x" }] }, { a: [1, { b: "y" }] })).toBe(false);
    expect(samePositionsAside({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
    expect(samePositionsAside({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(samePositionsAside({ a: null }, { a: {} })).toBe(false);
    expect(samePositionsAside({ a: [] }, { a: {} })).toBe(false);
    expect(samePositionsAside({ a: Number.NaN }, { a: Number.NaN })).toBe(true);
    expect(samePositionsAside({ mentions: [at(1)] }, { mentions: [at(2)] })).toBe(false);
    // Where a fact of a node was read (a merged model's page positions) is a position too.
    expect(samePositionsAside({ typeSource: at(1), scopesSource: at(4) }, { typeSource: at(2), scopesSource: at(5) })).toBe(true);
  });

  it("samePositionsAside, as a property: equal exactly when the values' JSON, positions and absent members left out, is", () => {
    const key = fc.constantFrom("a", "b", "source", "typeSource", "kind");
    const value = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constantFrom(0, 1, "x", "", null, true),
        fc.array(tie("v"), { maxLength: 3 }),
        // A member may be present and undefined (absent, to the walk and to JSON alike).
        fc.dictionary(key, fc.option(tie("v"), { nil: undefined, freq: 4 }), { maxKeys: 4 }),
      ),
    })).v;
    // What the walk means, said another way: a canonical JSON text (keys sorted) with positions and undefined dropped.
    const canon = (v: unknown): string =>
      JSON.stringify(v, (k, x) => (["source", "typeSource"].includes(k) ? undefined : x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : 1))) : x)) ?? "undefined";
    // The second value: another, or the first with its positions moved (so that equal pairs are common).
    const moved = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(moved) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === "source" ? { line: 9 } : moved(x)])) : v;
    fc.assert(
      fc.property(value, fc.oneof(value.map((b) => ({ b })), fc.constant(null)), (a, other) => {
        const b = other ? other.b : moved(a);
        expect(samePositionsAside(a, b)).toBe(canon(a) === canon(b));
      }),
      { numRuns: 500 },
    );
  });

  it("events: one added or gone, and what its handler receives, member by member at any depth; positions are no change", () => {
    const at = (line: number) => ({ file: "events.md", line, column: 1 });
    const field = (name: string, type: unknown, line: number, nullable = false) => ({ name, type, required: false, nullable, description: "", source: at(line) });
    const event = (code: string, id: string, line = 1, extra: unknown[] = []) => ({
      name: `on${code}`,
      code,
      description: "",
      scopes: ["crm"],
      fields: [field("event", { kind: "primitive", type: "string" }, line), field("data", { kind: "object", members: [field("FIELDS", { kind: "object", members: [field("ID", { kind: "primitive", type: id }, line + 2), ...extra] }, line + 1)] }, line)],
      source: at(line),
    });
    const withEvents = (...events: unknown[]) => ({ ...(JSON.parse(JSON.stringify(BASE)) as Model), eventPayloads: events }) as Model;
    const changes = (a: Model, b: Model) => diffModels(a, b, FILES).changes.map((c) => [c.code, c.message, c.audiences]);
    const one = withEvents(event("ONCRMDEALADD", "integer"));
    expect(changes(one, withEvents(event("ONCRMDEALADD", "integer", 40)))).toEqual([]);
    expect(changes(one, withEvents(event("ONCRMDEALADD", "integer"), event("ONCRMDEALUPDATE", "integer")))).toEqual([["event-added", "event `onONCRMDEALUPDATE` (`ONCRMDEALUPDATE`) is new", { server: "minor" }]]);
    expect(changes(one, withEvents())).toEqual([["event-removed", "event `onONCRMDEALADD` (`ONCRMDEALADD`) is no longer described", { server: "breaking" }]]);
    expect(changes(one, withEvents(event("ONCRMDEALADD", "string")))).toEqual([["event-payload-changed", "the member `data.FIELDS.ID` of what a handler of event `onONCRMDEALADD` (`ONCRMDEALADD`) receives is now string (was integer)", { server: "breaking" }]]);
    const titled = withEvents(event("ONCRMDEALADD", "integer", 1, [field("TITLE", { kind: "primitive", type: "string" }, 9)]));
    expect(changes(one, titled)).toEqual([["event-payload-member-added", "what a handler of event `onONCRMDEALADD` (`ONCRMDEALADD`) receives has a new member `data.FIELDS.TITLE`", { server: "minor" }]]);
    expect(changes(titled, one)).toEqual([["event-payload-changed", "what a handler of event `onONCRMDEALADD` (`ONCRMDEALADD`) receives no longer has `data.FIELDS.TITLE`", { server: "breaking" }]]);
    expect(diffModels(one, withEvents(), FILES).bump).toBe("major");
    // Only whether a member may be null: breaking when it may now be, wording when it may no longer be.
    const nullable = withEvents(event("ONCRMDEALADD", "integer"));
    const fields = (nullable.eventPayloads?.[0]?.fields[1]?.type as { members: Array<{ type: { members: Array<{ nullable: boolean }> } }> }).members[0]?.type.members[0];
    if (fields) fields.nullable = true;
    expect(changes(one, nullable)).toEqual([["event-payload-changed", "the member `data.FIELDS.ID` of what a handler of event `onONCRMDEALADD` (`ONCRMDEALADD`) receives may now be null", { server: "breaking" }]]);
    expect(changes(nullable, one)).toEqual([["description-changed", "the member `data.FIELDS.ID` of what a handler of event `onONCRMDEALADD` (`ONCRMDEALADD`) receives may no longer be null", { client: "patch", server: "patch" }]]);
  });

  it("placements: a code added or gone, and what its PLACEMENT_OPTIONS holds, key by key; positions are no change", () => {
    const at = (line: number) => ({ file: "widgets/tab.md", line, column: 1 });
    const field = (name: string, type: string, line: number, required = true) => ({ name, type: { kind: "primitive", type }, required, nullable: false, description: "", source: at(line) });
    const page = (codes: string[], options: unknown[], line = 1) => ({ codes, title: "Tab", description: "", scopes: ["placement"], options, source: at(line) });
    const withPlacements = (...placements: unknown[]) => ({ ...(JSON.parse(JSON.stringify(BASE)) as Model), placements }) as Model;
    const changes = (a: Model, b: Model) => diffModels(a, b, FILES).changes.map((c) => [c.code, c.message, c.audiences]);
    const one = withPlacements(page(["CRM_DEAL_DETAIL_TAB", "CRM_DYNAMIC_XXX_DETAIL_TAB"], [field("ID", "string", 5)]));
    expect(changes(one, withPlacements(page(["CRM_DEAL_DETAIL_TAB", "CRM_DYNAMIC_XXX_DETAIL_TAB"], [field("ID", "string", 50)], 20)))).toEqual([]);
    expect(changes(one, withPlacements(page(["CRM_DEAL_DETAIL_TAB"], [field("ID", "string", 5)])))).toEqual([["placement-removed", "placement `CRM_DYNAMIC_XXX_DETAIL_TAB` is no longer described", { server: "breaking" }]]);
    expect(changes(one, withPlacements(page(["CRM_DEAL_DETAIL_TAB", "CRM_DYNAMIC_XXX_DETAIL_TAB"], [field("ID", "string", 5)]), page(["LEFT_MENU"], [])))).toEqual([["placement-added", "placement `LEFT_MENU` is new", { server: "minor" }]]);
    expect(changes(one, withPlacements(page(["CRM_DEAL_DETAIL_TAB", "CRM_DYNAMIC_XXX_DETAIL_TAB"], [field("ID", "integer", 5)])))).toEqual([
      ["placement-options-changed", "the member `ID` of what `PLACEMENT_OPTIONS` of placement `CRM_DEAL_DETAIL_TAB` holds is now integer (was string)", { server: "breaking" }],
      ["placement-options-changed", "the member `ID` of what `PLACEMENT_OPTIONS` of placement `CRM_DYNAMIC_XXX_DETAIL_TAB` holds is now integer (was string)", { server: "breaking" }],
    ]);
    const more = withPlacements(page(["CRM_DEAL_DETAIL_TAB", "CRM_DYNAMIC_XXX_DETAIL_TAB"], [field("ID", "string", 5), field("URI", "string", 6, false)]));
    expect(changes(one, more).map((c) => c[0])).toEqual(["placement-option-added", "placement-option-added"]);
    expect(changes(more, one).map((c) => c[0])).toEqual(["placement-options-changed", "placement-options-changed"]);
    expect(diffModels(one, withPlacements(), FILES).bump).toBe("major");
  });

  it("an open set of known values is a string: values added or gone are wording, said once, never breaking", () => {
    const withParam = (type: unknown) => {
      const m = JSON.parse(JSON.stringify(BASE)) as Model;
      const method = m.methods.find((x) => x.described && x.params.some((p) => p.type.kind === "primitive" && p.type.type === "string" && !p.type.enum));
      const param = method?.params.find((p) => p.type.kind === "primitive" && p.type.type === "string" && !p.type.enum);
      if (param) param.type = type as never;
      return { m, name: `${method?.name}`, param: `${param?.name}` };
    };
    const plain = withParam({ kind: "primitive", type: "string" });
    const open = withParam({ kind: "primitive", type: "string", enum: ["A", "B"], openEnum: true });
    const fewer = withParam({ kind: "primitive", type: "string", enum: ["A"], openEnum: true });
    const closed = withParam({ kind: "primitive", type: "string", enum: ["A", "B"] });
    const changes = (a: Model, b: Model) => diffModels(a, b, FILES).changes.map((c) => [c.code, c.message]);
    expect(changes(plain.m, open.m)).toEqual([["description-changed", expect.stringMatching(/lists 2 more known values \(any value is still taken\)$/)]]);
    expect(changes(open.m, fewer.m)).toEqual([["description-changed", expect.stringMatching(/lists 1 known value fewer/)]]);
    expect(diffModels(open.m, plain.m, FILES).bump).toBe("patch");
    // A closed set is another matter: a string that takes only its values.
    expect(changes(plain.m, closed.m).map((c) => c[0])).toEqual(["param-type-changed"]);
  });

  it("the list of scopes: a scope listed, unlisted or deprecated; positions are no change", () => {
    const entry = (code: string, line: number, deprecated = false) => ({ code, description: code.toUpperCase(), tool: "Tool", ...(deprecated ? { deprecated: true as const } : {}), source: { file: "permissions.md", line, column: 1 } });
    const withList = (...list: ReturnType<typeof entry>[]) => ({ ...(JSON.parse(JSON.stringify(BASE)) as Model), scopeList: list }) as Model;
    const changes = (a: Model, b: Model) => diffModels(a, b, FILES).changes.map((c) => [c.code, c.message, c.audiences]);
    const two = withList(entry("crm", 1), entry("task", 2));
    expect(changes(two, withList(entry("crm", 5), entry("task", 9)))).toEqual([]);
    expect(changes(two, withList(entry("crm", 1), entry("task", 2), entry("booking", 3)))).toEqual([["scope-listed", "the list of scopes has `booking`", { client: "minor", server: "minor" }]]);
    expect(changes(two, withList(entry("crm", 1)))).toEqual([["scope-unlisted", "the list of scopes no longer has `task`", { client: "breaking", server: "minor" }]]);
    expect(changes(two, withList(entry("crm", 1), entry("task", 2, true)))).toEqual([["description-changed", "scope `task` is now deprecated in the list of scopes", { client: "patch", server: "patch" }]]);
  });

  it("the request rates per plan: stated, changed or gone is limit-changed; positions are no change", () => {
    const rate = (plan: string, perSecond: number, burst: number, line: number) => ({ plan, perSecond, burst, source: { file: "limits.md", line, column: 4 } });
    const withRates = (...rates: ReturnType<typeof rate>[]) => ({ ...(JSON.parse(JSON.stringify(BASE)) as Model), requestRates: rates }) as Model;
    const changes = (a: Model, b: Model) => diffModels(a, b, FILES).changes.map((c) => [c.code, c.message]);
    const two = withRates(rate("Enterprise", 5, 250, 49), rate("Others", 2, 50, 50));
    expect(changes(two, withRates(rate("Enterprise", 5, 250, 60), rate("Others", 2, 50, 61)))).toEqual([]);
    expect(changes(two, withRates(rate("Enterprise", 5, 250, 49), rate("Others", 3, 50, 50)))).toEqual([["limit-changed", 'the request rate of plan "Others" is now 3 a second, 50 before blocking (was 2 and 50)']]);
    expect(changes(two, withRates(rate("Enterprise", 5, 250, 49)))).toEqual([["limit-changed", 'the request rate of plan "Others" is no longer stated']]);
    expect(changes(BASE, two).map((c) => c[1])).toEqual(['the request rate of plan "Enterprise" is stated: 5 a second, 250 before blocking', 'the request rate of plan "Others" is stated: 2 a second, 50 before blocking']);
    expect(diffModels(two, withRates(rate("Enterprise", 5, 250, 49), rate("Others", 3, 50, 50)), FILES).bump).toBe("minor");
  });

  it("a 3.0 error body added, changed or gone is an envelope change (the reference states it, the spec does not)", () => {
    const withBody = (type: string | null) => {
      const m = JSON.parse(JSON.stringify(BASE)) as Model;
      if (m.envelope && type) m.envelope.v3ErrorBody = [{ name: "code", type: { kind: "primitive", type } as never, required: false, nullable: false, description: "", source: { file: "inc.md", line: 3, column: 1 } }];
      return m;
    };
    const codes = (a: Model, b: Model) => diffModels(a, b, FILES).changes.map((c) => c.code);
    expect(codes(BASE, withBody("string"))).toEqual(["envelope-changed"]);
    expect(codes(withBody("string"), withBody("integer"))).toEqual(["envelope-changed"]);
    expect(codes(withBody("string"), BASE)).toEqual(["envelope-changed"]);
    expect(codes(withBody("string"), withBody("string"))).toEqual([]);
  });

  it("where a merged model read a scope or a parameter's type is no change: moved, added or gone, nothing is reported", () => {
    const withPlaces = (line: number | null) => {
      const m = JSON.parse(JSON.stringify(BASE)) as Model;
      for (const method of m.methods.filter((x) => x.described)) {
        if (line === null) continue;
        method.scopesSource = { file: "page.md", line, column: 1 };
        for (const p of method.params) p.typeSource = { file: "page.md", line: line + 1, column: 1 };
      }
      return m;
    };
    expect(diffModels(withPlaces(3), withPlaces(40), FILES).changes).toEqual([]);
    expect(diffModels(BASE, withPlaces(3), FILES).changes).toEqual([]);
    expect(diffModels(withPlaces(3), BASE, FILES).changes).toEqual([]);
  });

  const lines = SPEC_TEXT.split("\n");
  const edit = fc.record({ at: fc.nat(lines.length - 1), op: fc.constantFrom("delete", "duplicate", "star", "unstar", "swap-words") });
  function mutate(ops: Array<{ at: number; op: string }>): string {
    const out = [...lines];
    for (const { at, op } of ops) {
      const i = at % out.length;
      const line = out[i] ?? "";
      if (op === "delete") out.splice(i, 1);
      else if (op === "duplicate") out.splice(i, 0, line);
      else if (op === "star") out[i] = line.replace(/`(\w+)` (string|integer)/, "`$1`* $2");
      else if (op === "unstar") out[i] = line.replace("`*", "`");
      else out[i] = line.replace(/(\w+) (\w+)/, "$2 $1");
    }
    return out.join("\n");
  }

  it("the texts of one code reordered change nothing; one added in front is one addition", () => {
    const line = lines.findIndex((l) => l.startsWith("- Errors: 400 `ERROR_EVENT_NOT_FOUND`"));
    expect(line).toBeGreaterThan(0);
    const texts = ["`Argument 'EVENT' is null or empty`", "`Argument 'HANDLER' is null or empty`"];
    const swapped = [...lines];
    swapped[line] = (lines[line] ?? "").replace(`${texts[0]}, ${texts[1]}`, `${texts[1]}, ${texts[0]}`);
    expect(swapped[line]).not.toBe(lines[line]);
    const a = modelOrNull(SPEC_TEXT);
    const b = modelOrNull(swapped.join("\n"));
    if (!a || !b) throw new Error("spec does not read");
    expect(diffModels(a, b, FILES).changes.filter((c) => c.code !== "description-changed")).toEqual([]);
    const added = [...lines];
    added[line] = (lines[line] ?? "").replace(texts[0] ?? "", `\`Argument 'NEW' is wrong\`, ${texts[0]}`);
    const c = modelOrNull(added.join("\n"));
    if (!c) throw new Error("spec does not read");
    expect(diffModels(a, c, FILES).changes.map((x) => x.code).filter((x) => x.startsWith("error"))).toEqual(["error-added"]);
  });

  it("a field listed twice pairs with its own repeat: diff(a, a) stays empty (fast-check's counterexample)", () => {
    const a = modelOrNull(mutate([{ at: 49, op: "duplicate" }, { at: 0, op: "swap-words" }]));
    expect(a).not.toBeNull();
    if (a) expect(diffModels(a, structuredClone(a), FILES)).toEqual({ bump: "none", changes: [] });
  });

  it("diff(a, a) is empty with bump none, for any spec that reads", () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 5 }), (ops) => {
        const text = mutate(ops);
        const a = modelOrNull(text);
        if (!a) return;
        // A second reading of the same text: equal models from separate objects (structuredClone stands for it).
        expect(diffModels(a, structuredClone(a), FILES)).toEqual({ bump: "none", changes: [] });
      }),
      { numRuns: 12 },
    );
  });

  it("a mutation never makes the diff throw; every position points inside its own file; the bump is the highest severity", () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 5 }), (ops) => {
        const text = mutate(ops);
        const b = modelOrNull(text);
        if (!b) return;
        const report = diffModels(BASE, b, FILES);
        const oldLines = SPEC_TEXT.split("\n");
        const newLines = text.split("\n");
        for (const c of report.changes) {
          if (c.from) {
            expect(c.from.file).toBe("old.md");
            expect(c.from.line).toBeLessThanOrEqual(oldLines.length);
            expect(c.from.column).toBeLessThanOrEqual((oldLines[c.from.line - 1]?.length ?? 0) + 1);
          }
          if (c.to) {
            expect(c.to.file).toBe("new.md");
            expect(c.to.line).toBeLessThanOrEqual(newLines.length);
            expect(c.to.column).toBeLessThanOrEqual((newLines[c.to.line - 1]?.length ?? 0) + 1);
          }
          expect(c.from ?? c.to).not.toBeNull();
          expect(c.severity).toBe(["breaking", "minor", "patch"].find((s) => Object.values(c.audiences).includes(s as never)));
        }
        const top = report.changes.some((c) => c.severity === "breaking") ? "major" : report.changes.some((c) => c.severity === "minor") ? "minor" : report.changes.length ? "patch" : "none";
        expect(report.bump).toBe(top);
      }),
      { numRuns: 12 },
    );
  });
});

function modelOrNull(text: string): Model | null {
  try {
    return modelOf(text);
  } catch {
    return null;
  }
}

describe("diff: secrets", () => {
  it("a credential in a reworded note is redacted before the excerpt is cut", () => {
    const code = "q8w7e6r5t4y3u2i1o0p9a8s7d6f5g4h3";
    const edited = once(SPEC_TEXT, "Neither replaces the other.", `Neither replaces the other; a sample is at the address https://portal.example.com/rest/1/${code}/tasks.task.get.json today.`);
    const report = diffModels(BASE, modelOf(edited), FILES);
    for (const format of ["text", "json", "markdown", "github"] as const) expect(formatDiff(report, format)).not.toContain(code.slice(0, 8));
  });
});
