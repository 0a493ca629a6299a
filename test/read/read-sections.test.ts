import { describe, expect, it } from "vitest";
import type { Resource } from "../../generator/model/types.js";
import { modelOf, withoutSources } from "../helpers.js";

const withResources = (md: string, endpoints = "**a.b**. Scope `x`.") =>
  `# API\n\n## Resources and their fields\n\n${md}\n\n## Endpoints\n\n### Area\n\n${endpoints}\n`;

function resource(md: string, name: string, endpoints?: string): Resource {
  const r = modelOf(withResources(md, endpoints)).resources.find((x) => x.name === name);
  if (!r) throw new Error(`no resource ${name}`);
  return withoutSources(r);
}

describe("resources", () => {
  it("field table: types, nullable, empty object, only-when fields", () => {
    const r = resource(
      "### Call record (result of `a.b`)\n\n| Field | Type |\n|---|---|\n| ID | integer, id of the record |\n| EXT | string or null |\n| START | date-time (may come as an empty object) |\n| ERRORS | additional errors, only when they occurred |",
      "CallRecord",
    );
    expect(r.returnedBy).toEqual(["a.b"]);
    expect(r.type).toMatchObject({
      kind: "object",
      members: [
        { name: "ID", type: { kind: "primitive", type: "integer" }, required: true, description: "id of the record" },
        { name: "EXT", nullable: true, type: { kind: "primitive", type: "string" } },
        { name: "START", mayBeEmptyObject: true, type: { kind: "primitive", type: "string", format: "date-time" } },
        { name: "ERRORS", required: false, optional: true, type: { kind: "unknown" } },
      ],
    });
  });

  it("grouped table with a typing sentence and nested shapes as bullets", () => {
    const md =
      "### Task\n\nReturned by `a.b` (key `task` inside `result`). Identifiers and counters are decimal strings; flags are strings `Y`/`N`; dates are ISO 8601 with offset or null.\n\n" +
      "| Group | Fields |\n|---|---|\n| identity | id, guid |\n| dates | createdDate |\n| switches | taskControl |\n| people | auditors (array of ids), creator |\n\n" +
      "- `creator`: objects with `id`, `name`.\n- `action`: object of booleans with keys accept, edit.plan.\n- Meaning of `status` values: not shown.";
    const model = modelOf(withResources(md));
    const task = withoutSources(model.resources.find((r) => r.name === "Task"));
    expect(task?.type).toMatchObject({
      kind: "object",
      members: [
        { name: "id", group: "identity", type: { kind: "primitive", type: "string", format: "decimal" } },
        { name: "guid", type: { kind: "primitive", type: "string" } },
        { name: "createdDate", nullable: true, type: { kind: "primitive", type: "string", format: "date-time" } },
        { name: "taskControl", type: { kind: "primitive", type: "string", enum: ["Y", "N"] } },
        { name: "auditors", type: { kind: "array", items: { kind: "primitive", type: "string", format: "decimal" } } },
        { name: "creator", type: { kind: "ref", resource: "TaskCreator" } },
        { name: "action", type: { kind: "ref", resource: "TaskAction" } },
      ],
    });
    expect(task?.typingRules).toHaveLength(1);
    expect(withoutSources(model.resources.find((r) => r.name === "TaskAction")?.type)).toMatchObject({
      members: [{ name: "accept", type: { kind: "primitive", type: "boolean" } }, { name: "edit.plan" }],
    });
    expect(model.knownGaps.find((g) => g.appliesTo.includes("resource:Task"))?.subject).toBe("Meaning of `status` values");
  });

  it("a method with `select` makes its resource's fields optional", () => {
    const md = "### Task\n\nReturned by `a.b`.\n\n| Field | Type |\n|---|---|\n| id | integer |";
    const model = modelOf(withResources(md, "**a.b**. Scope `x`.\n- `select` array of field names."));
    expect(model.resources.find((r) => r.name === "Task")?.type).toMatchObject({ members: [{ name: "id", required: false }] });
  });

  it("keyed object paragraph", () => {
    const r = resource("### Allowed actions\n\n`allowedActions`: object keyed by user id; value is an object of booleans with keys ACCEPT, EDIT.PLAN.", "AllowedActions");
    expect(r.type).toEqual({ kind: "object", members: [], keyDescription: "user id", additional: { kind: "ref", resource: "AllowedActionsValue" } });
  });

  it.each([
    {
      md: "- Current user (`user.current`): ID (string), ACTIVE (boolean), NAME, LAST_LOGIN (ISO 8601), GENDER, WORK (strings), DEPT (array of integers). The set of returned fields depends on the scope.",
      name: "CurrentUser",
      returnedBy: ["user.current"],
      members: [
        { name: "ID", required: false, type: { kind: "primitive", type: "string" } },
        { name: "ACTIVE", type: { kind: "primitive", type: "boolean" } },
        { name: "NAME", type: { kind: "unknown" } },
        { name: "LAST_LOGIN", type: { kind: "primitive", type: "string", format: "date-time" } },
        { name: "GENDER", type: { kind: "primitive", type: "string" } },
        { name: "WORK", type: { kind: "primitive", type: "string" } },
        { name: "DEPT", type: { kind: "array", items: { kind: "primitive", type: "integer" } } },
      ],
    },
    {
      md: "- Mail service (`m.list` item): ID, ACTIVE (Y/N), LINK (all strings), SMTP_SERVER. SMTP fields may be null when unset.",
      name: "MailService",
      returnedBy: ["m.list"],
      members: [
        { name: "ID", required: true, type: { kind: "primitive", type: "string" } },
        { name: "ACTIVE", type: { kind: "primitive", type: "string", enum: ["Y", "N"] } },
        { name: "LINK", type: { kind: "primitive", type: "string" } },
        { name: "SMTP_SERVER", nullable: true, type: { kind: "unknown" } },
      ],
    },
    {
      md: "- Placement handler (`p.get` item; camelCase names): options (object, or empty array when none), langAll (object keyed by language code; value has TITLE, DESCRIPTION).",
      name: "PlacementHandler",
      returnedBy: ["p.get"],
      members: [
        { name: "options", mayBeEmptyArray: true, type: { kind: "object" } },
        { name: "langAll", type: { kind: "object", keyDescription: "language code", additional: { kind: "ref", resource: "PlacementHandlerLangAllValue" } } },
      ],
    },
  ])("other resources bullet: $name", ({ md, name, returnedBy, members }) => {
    const r = resource(`### Other resources\n\n${md}`, name);
    expect(r.returnedBy).toEqual(returnedBy);
    expect(r.type).toMatchObject({ kind: "object", members });
  });

  it("a resource that points at a method's parameter takes its shape", () => {
    const model = modelOf(
      withResources("### Other resources\n\n- Calendar user settings: see `c.set` in Endpoints.", "**c.set**. Scope `c`. `settings`* object:\n\n| Member | Type | Meaning |\n|---|---|---|\n| view | string | `day`, `week` |"),
    );
    const r = model.resources.find((x) => x.name === "CalendarUserSettings");
    expect(withoutSources(r?.type)).toMatchObject({ kind: "object", members: [{ name: "view" }] });
    expect(model.methods.find((m) => m.name === "c.set")?.params[0]?.type).toEqual({ kind: "ref", resource: "CalendarUserSettings" });
  });
});

describe("prose sections", () => {
  const spec = `# API

## Resources and their fields

### Response envelope (every method)

Success: HTTP 200, JSON object with two top-level members.

| Member | Type | Meaning |
|---|---|---|
| result | object, array, boolean or integer (depends on method) | data |
| time | object | timing |

Object \`time\`:

| Field | Type | Meaning |
|---|---|---|
| start | number | Unix time |
| operating_reset_at | integer | present in most responses, absent in some |

Legacy error body: \`error\` (string; digits, Latin letters and underscore; may be empty) and \`error_description\` (string, for developers). Some errors add extra members, e.g. \`argument\` with the name of the faulty parameter.

## States and transitions

| Subject | Trigger | Condition | Next state | Also |
|---|---|---|---|---|
| Pin | \`a.b\` | read access | N | carries the task |

- Task status transitions: not shown.

## Endpoints

### Addressing and request rules

| Form | Path |
|---|---|
| Legacy, webhook | POST {base_url}/rest/{user_id}/{webhook_code}/{method} (suffix \`.json\` is accepted) |
| 3.0, application | {base_url}/rest/api/{method}; body member \`auth\` = <ACCESS_TOKEN> |

1. Only HTTPS is accepted.

### Area

**a.b**. Scope \`x\`.

### Retrieving file content

| Where the file is | Method | Field to use |
|---|---|---|
| Comment | \`crm.comment.get\`, \`.list\` | \`FILES\` |
| Template | \`doc.template.get\` (and \`crm.\` variants) | \`url\` |

## Authentication

1. Some methods need an application context and fail for webhooks with \`WRONG_AUTH_TYPE\` (e.g. \`a.b\`).

| Status | Code | When |
|---|---|---|
| 401 | NO_AUTH_FOUND | no credentials |

## Errors

System errors (may answer any method):

| Status | Code | Text | Cause |
|---|---|---|---|
| 401 | INVALID_REQUEST | Https required | plain HTTP |

An older description of the same list gives other statuses: INVALID_REQUEST 400, and adds \`ERROR_BATCH_X\` (405, not allowed in batch).

3.0 errors:

| Code | Status | Cause |
|---|---|---|
| SERVICE_X | | body not JSON |

HTTP status of the first 3.0 error: not shown.

## Limits

| Limit | Value | Applies to |
|---|---|---|
| Idempotency key length | 1 to 255 printable ASCII characters | 3.0 |
| \`limit\` | 1 to 1000, default 20 | \`s.tail\` |
`;

  const model = modelOf(spec);

  it("envelope, time and the legacy error body", () => {
    const env = withoutSources(model.envelope);
    expect(env?.members.map((m) => m.name)).toEqual(["result", "time"]);
    expect(env?.members[0]?.type.kind).toBe("union");
    expect(env?.time).toMatchObject([{ name: "start", required: true }, { name: "operating_reset_at", required: false, optional: true }]);
    expect(env?.legacyErrorBody).toMatchObject([
      { name: "error", type: { kind: "primitive", type: "string", pattern: "^[0-9A-Za-z_]*$" } },
      { name: "error_description" },
      { name: "argument", required: false },
    ]);
  });

  it("states, addressing, file retrieval", () => {
    // "Pin" names no field and "N" is no backticked value: the mock has nothing to set, and the row says so.
    expect(withoutSources(model.states.transitions)).toEqual([{ subject: "Pin", trigger: "`a.b`", condition: "read access", next: "N", also: "carries the task", effect: { kind: "unread", method: "a.b" } }]);
    expect(model.knownGaps.some((g) => g.subject === "Task status transitions")).toBe(true);
    expect(withoutSources(model.addressing.forms)).toEqual([
      { version: "legacy", auth: "webhook", httpMethod: "POST", path: "{base_url}/rest/{user_id}/{webhook_code}/{method}", notes: ["suffix `.json` is accepted"] },
      { version: "v3", auth: "application", httpMethod: null, path: "{base_url}/rest/api/{method}", notes: ["body member `auth` = <ACCESS_TOKEN>"] },
    ]);
    expect(model.fileRetrieval.rows.map((r) => r.methods)).toEqual([["crm.comment.get", "crm.comment.list"], ["doc.template.get", "crm.doc.template.get"]]);
    expect(model.methods.filter((m) => !m.described).map((m) => m.name)).toEqual(
      expect.arrayContaining(["crm.comment.get", "crm.comment.list", "doc.template.get", "crm.doc.template.get"]),
    );
  });

  it("error catalogue with older statuses, 3.0 table in its own column order, auth table", () => {
    expect(withoutSources(model.errors.catalogue)).toEqual([
      { kind: "auth", status: 401, altStatus: null, code: "NO_AUTH_FOUND", text: null, cause: "no credentials" },
      { kind: "system", status: 401, altStatus: 400, code: "INVALID_REQUEST", text: "Https required", cause: "plain HTTP" },
      { kind: "system", status: null, altStatus: 405, code: "ERROR_BATCH_X", text: null, cause: "not allowed in batch" },
      { kind: "v3", status: null, altStatus: null, code: "SERVICE_X", text: null, cause: "body not JSON" },
    ]);
  });

  it("application-context list and limits that name a method's parameters", () => {
    expect(model.methods.find((m) => m.name === "a.b")?.applicationContextOnly).toBe(true);
    const tail = model.methods.find((m) => m.name === "s.tail");
    expect(withoutSources(tail?.params)).toMatchObject([
      { name: "limit", type: { kind: "primitive", type: "integer", minimum: 1, maximum: 1000 }, default: { value: 20 } },
    ]);
    expect(model.limits.table[0]).toMatchObject({ min: 1, max: 255 });
  });
});
