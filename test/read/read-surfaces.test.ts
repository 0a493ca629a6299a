import { describe, expect, it } from "vitest";
import { buildFromText } from "../../generator/generate.js";
import type { Model, Resource } from "../../generator/model/types.js";
import { modelOf, withoutSources } from "../helpers.js";

/**
 * Issue 26: the surfaces the rewrites by other hands (test/fixtures/other-hands/) used that the readers lacked, each
 * a small spec in and the facts out. Each case was lost (or misread) before its reader change; the cases are
 * written here in the fixtures' own words, so that a regression shows here before it shows in their fact count.
 */

const spec = (sections: string, endpoints = "**a.b**. Scope `x`.") => `# API\n\n${sections}\n\n## Endpoints\n\n### Area\n\n${endpoints}\n`;

function resourceOf(model: Model, name: string): Resource {
  const r = model.resources.find((x) => x.name === name);
  if (!r) throw new Error(`no resource ${name}: ${model.resources.map((x) => x.name).join(", ")}`);
  return withoutSources(r);
}

/** The method `name` of a spec with these endpoints, without sources, and the whole reading. */
const method = (endpoints: string, name = "ab.cd") => {
  const r = buildFromText(spec("", endpoints), "spec.md");
  const m = r.model?.methods.find((x) => x.name === name);
  if (!m) throw new Error(`no method ${name}`);
  return { m: withoutSources(m), r };
};

const members = (r: Resource) => (r.type.kind === "object" ? r.type.members.map((m) => `${m.name}: ${m.type.kind === "primitive" ? m.type.type : m.type.kind}${m.required ? "" : "?"}`) : []);

describe("resource fields in other layouts", () => {
  it("a name cell `**name**<br>`type`` is the name and its type; several names in one cell are one field each", () => {
    const model = modelOf(
      spec("## Data Structures\n\n### Record\n\nReturned by `a.b`.\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **ID**<br>`integer` | Identifier |\n| **WORK_PHONE, PERSONAL_PHONE** | string or null |"),
    );
    const r = resourceOf(model, "Record");
    // No type on the name cell's second line: the Description's opening "string or null" is the type, as in a bullet.
    expect(members(r)).toEqual(["ID: integer", "WORK_PHONE: string", "PERSONAL_PHONE: string"]);
  });

  it("a name cell that is no name is a warning, not a field named after the cell", () => {
    const r = buildFromText(spec("## Resources\n\n### Record\n\n| Field | Type |\n|---|---|\n| the id, see above | integer |"), "spec.md");
    expect(r.diagnostics.map((d) => `${d.line} ${d.code}`)).toContain("9 unread-text");
    expect(members(resourceOf(r.model as Model, "Record"))).toEqual([]);
  });

  it("bold-titled paragraphs under Other resources: a table after one, or fields after a dash", () => {
    const model = modelOf(
      spec(
        "## Resources\n\n### Misc resources\n\n**Current user** (`a.b`). Returned field set depends on scope (`user`, `user_brief`).\n\n| Field | Type |\n|---|---|\n| ID | str |\n| ACTIVE | bool |\n\n" +
          "**Pay system item** (`a.b`) — fields: ID, NAME, SORT.\n\n**Note:** not a resource.",
      ),
    );
    expect(members(resourceOf(model, "CurrentUser"))).toEqual(["ID: string?", "ACTIVE: boolean?"]);
    expect(resourceOf(model, "CurrentUser").fieldScopes).toEqual(["user", "user_brief"]);
    expect(members(resourceOf(model, "PaySystem"))).toEqual(["ID: unknown", "NAME: unknown", "SORT: unknown"]);
    expect(model.resources.some((r) => r.name === "Note")).toBe(false);
  });

  it("a section's lead-ins: Item of, Fields:, Returned by `m`: shape, the result of adding", () => {
    const model = modelOf(
      spec(
        "## Resources\n\n### Pay system\n\n**Item of:** `a.b`. Fields:\n\n`ID`, `NAME`, `SORT`.\n\n" +
          "### Labels\n\nReturned by `a.b`: an object of localized strings with the keys ID, SITE_ID.\n\n" +
          "### External line\n\nThe result of adding an external line is an object with `ID` (integer).",
      ),
    );
    const pay = resourceOf(model, "PaySystem");
    expect(members(pay)).toEqual(["ID: unknown", "NAME: unknown", "SORT: unknown"]);
    expect(pay.returnedBy).toContain("a.b");
    expect(members(resourceOf(model, "Labels"))).toEqual(["ID: string", "SITE_ID: string"]);
    expect(members(resourceOf(model, "ExternalLine"))).toEqual(["ID: integer"]);
  });

  it("a map: keyed-by words in a Description cell, a table whose one row is the resource's own member, and shorthand", () => {
    const model = modelOf(
      spec(
        "## Resources\n\n### Allowed Actions\n\nReturned by `a.b`.\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **allowedActions**<br>`object` | Keyed by user id. Each value is an object of booleans with the keys ACCEPT, EDIT.PLAN |\n\n" +
          "### Rights\n\n`rights` = obj keyed by user id → value = obj of bools, keys:\n\nREAD, WRITE",
      ),
    );
    const allowed = resourceOf(model, "AllowedActions");
    expect(allowed.type).toMatchObject({ kind: "object", members: [], keyDescription: "user id", additional: { kind: "ref", resource: "AllowedActionsValue" } });
    expect(allowed.memberName).toBe("allowedActions");
    expect(members(resourceOf(model, "AllowedActionsValue"))).toEqual(["ACCEPT: boolean?", "EDIT.PLAN: boolean?"]);
    expect(resourceOf(model, "Rights").type).toMatchObject({ kind: "object", keyDescription: "user id", additional: { kind: "ref", resource: "RightsValue" } });
    expect(members(resourceOf(model, "RightsValue"))).toEqual(["READ: boolean?", "WRITE: boolean?"]);
  });
});

describe("notes, gaps and the catalogue in other layouts", () => {
  it("a quoted note of a section is its text; `Not shown:` and a list, and `Not shown: a; b`, are a gap each", () => {
    const model = modelOf(
      spec("## States\n\n> Note\n>\n> Not shown: the moves; the values.\n\n## Limits\n\n> **Not shown:**\n> - the numeric thresholds;\n> - the reset time."),
    );
    const gaps = model.knownGaps.filter((g) => g.appliesTo.includes("states") || g.appliesTo.includes("limits")).map((g) => `${g.appliesTo[0]}: ${g.subject}`);
    expect(gaps).toEqual(["states: the moves", "states: the values", "limits: the numeric thresholds", "limits: the reset time"]);
  });

  it("older statuses in a subsection's tables (an `older` column, 'also adds:') and a 3.0 subsection by its title", () => {
    const model = modelOf(
      spec(
        "## 9. Errors\n\n### 9.1 System errors\n\n| Code | HTTP status | Message |\n|---|---|---|\n| `INVALID_REQUEST` | 401 | Https required |\n\n" +
          "#### Older status assignments\n\n| Code | Status in the older description |\n|---|---|\n| `INVALID_REQUEST` | 400 |\n\nThe older description also adds:\n\n| Code | Status | Cause |\n|---|---|---|\n| `ERROR_BATCH_LENGTH_EXCEEDED` | 400 | batch parameters too long |\n\n" +
          "### 9.2 Version 3.0 errors\n\n| HTTP status | Code | Cause |\n|---|---|---|\n| 422 | `SERVICE_REST_V3_EXCEPTION_IDEMPOTENCYKEYREUSEDEXCEPTION` | key reused |",
      ),
    );
    expect(model.errors.catalogue.map((e) => `${e.kind} ${e.code} ${e.status ?? "-"}/${e.altStatus ?? "-"}${e.cause ? ` ${e.cause}` : ""}`)).toEqual([
      "system INVALID_REQUEST 401/400",
      "system ERROR_BATCH_LENGTH_EXCEEDED -/400 batch parameters too long",
      "v3 SERVICE_REST_V3_EXCEPTION_IDEMPOTENCYKEYREUSEDEXCEPTION 422/- key reused",
    ]);
  });

  it("older statuses in a quoted paragraph with backticked codes ('It also adds')", () => {
    const model = modelOf(
      spec(
        "## Errors\n\n| Status | Code | Text |\n|---|---|---|\n| 401 | OVERLOAD_LIMIT | blocked |\n\n> Note\n>\n> An older description of the same list gives other statuses: `OVERLOAD_LIMIT` 503. It also adds `ERROR_MANIFEST_IS_NOT_AVAILABLE` (404).",
      ),
    );
    expect(model.errors.catalogue.map((e) => `${e.code} ${e.status ?? "-"}/${e.altStatus ?? "-"}`)).toEqual(["OVERLOAD_LIMIT 401/503", "ERROR_MANIFEST_IS_NOT_AVAILABLE -/404"]);
  });
});

describe("the envelope in other layouts", () => {
  const expected = {
    members: ["result: union", "time: object"],
    time: ["start: number", "operating_reset_at: integer?"],
    body: ["error: string", "error_description: string", "argument: string?"],
  };
  const shape = (model: Model) => {
    const env = model.envelope;
    if (!env) throw new Error("no envelope");
    const line = (f: { name: string; type: { kind: string; type?: string }; required: boolean }) => `${f.name}: ${f.type.kind === "primitive" ? f.type.type : f.type.kind}${f.required ? "" : "?"}`;
    return { members: env.members.map(line), time: env.time.map(line), body: env.legacyErrorBody.map(line) };
  };

  it("a top-level Responses section with a subsection per part, members as bold paragraphs", () => {
    const model = modelOf(
      spec(
        "## 4. Responses\n\n### 4.1 Success envelope\n\n**`result`** — object, array, boolean or integer, depending on the method. Holds the data.\n\n**`time`** — object with timing data:\n\n| Name | Type | Description |\n|---|---|---|\n| `start` | number | Unix time |\n| `operating_reset_at` | integer | present in most responses but absent in some |\n\n" +
          "### 4.2 Legacy error body\n\n| Member | Type | Description |\n|---|---|---|\n| `error` | string | digits, Latin letters and underscore; may be empty |\n| `error_description` | string | for developers |\n\nSome errors carry extra members — for example `argument`, which names the faulty parameter.",
      ),
    );
    expect(shape(model)).toEqual(expected);
    expect(model.envelope?.legacyErrorBody[0]?.type).toMatchObject({ pattern: "^[0-9A-Za-z_]*$" });
  });

  it("name cells with their type, 'The `time` object:' and the error body as a list", () => {
    const model = modelOf(
      spec(
        "## Data Structures\n\n### Response Envelope\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **result**<br>`object`, `array`, `boolean` or `integer` (depends on the method) | data |\n| **time**<br>`object` | timing |\n\nThe `time` object:\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **start**<br>`number` | Unix time |\n| **operating_reset_at**<br>`integer` | Present in most responses, absent from some |\n\n" +
          "Legacy error body:\n\n- `error` — `string` made of digits, Latin letters and underscore.\n- `error_description` — `string` for developers.\n\nSome errors carry extra members, for example `argument`, the faulty parameter.",
      ),
    );
    expect(shape(model)).toEqual(expected);
  });
});

describe("methods in other layouts", () => {
  const legacy = (model: Model, name: string) => {
    const m = model.methods.find((x) => x.name === name && x.version === "legacy");
    if (!m) throw new Error(`no method ${name}`);
    return m;
  };

  it("call forms as a table after 'Call it in one of three forms': a constraint, each name a parameter", () => {
    const model = modelOf(
      spec(
        "",
        "**a.b**. Scope `x`.\n\nCall it in one of three forms; every parameter in the chosen form is required.\n\n| Form | Required parameters | Description |\n|---|---|---|\n| 1 | `attachId` | poll id |\n| 2 | **moduleId***, **entityId*** | the element |\n",
      ),
    );
    const m = legacy(model, "a.b");
    expect(m.params.map((p) => `${p.name}${p.required ? "*" : ""}`)).toEqual(["attachId", "moduleId", "entityId"]);
    expect(m.constraints).toMatchObject([{ kind: "call-forms", forms: [["attachId"], ["moduleId", "entityId"]] }]);
  });

  it("under a method heading's Response Handling, '`boolean`.' is the result, not a parameter named boolean", () => {
    const model = modelOf(spec("", "#### Set the item xy.item.set\n\n> Scope: `x`\n\n##### Method Parameters\n\nNo parameters.\n\n##### Response Handling\n\n`boolean`.\n"));
    const m = legacy(model, "xy.item.set");
    expect(m.params).toEqual([]);
    expect(m.result?.type).toMatchObject({ kind: "primitive", type: "boolean" });
  });

  it("a paragraph before an area's first method is the area's: 'The following methods are named, but …: `x`, `y`'", () => {
    const model = modelOf(spec("", "#### Methods Without a Description Here\n\nThe following methods are named, but their parameters and responses are not shown: `event.get`, `disk.*` methods.\n\n**a.b**. Scope `x`."));
    expect(model.methods.filter((m) => !m.described).map((m) => m.name)).toEqual(expect.arrayContaining(["event.get", "disk.*"]));
    expect(model.knownGaps.find((g) => g.appliesTo.includes("method:legacy:event.get"))?.subject).toBe("parameters and responses of the named methods");
  });
});

describe("states in other layouts", () => {
  it("labelled bullets under a bold subject, and a table with Call / Resulting state columns", () => {
    const model = modelOf(
      spec(
        "## 6. Lifecycles\n\n### 6.1 Tasks\n\n**Pin flag `isPinned`**\n- Trigger: `a.b`.\n- Precondition: read access.\n- Result: `isPinned` becomes `N`.\n- The response carries the task.\n\n" +
          "### 6.2 Links\n\n| Call | Precondition | Resulting state | Also |\n|---|---|---|---|\n| `a.b` with status 1 | may change | enabled | `publicUrl` holds the link |",
      ),
    );
    expect(model.states.transitions.map((t) => [t.subject, t.trigger, t.condition, t.next, t.also])).toEqual([
      // "`isPinned` becomes `N`" of the subject's own field is the value it becomes (the mock sets it to `N`, not to
      // the text `isPinned`); a table with no Subject column is about its section's subject.
      ["Pin flag `isPinned`", "`a.b`", "read access", "`N`", "The response carries the task."],
      ["Links", "`a.b` with status 1", "may change", "enabled", "`publicUrl` holds the link"],
    ]);
  });
});

describe("older statuses of codes the list lacks", () => {
  it("a restated status for a code not in the system table is a warning, not a new entry", () => {
    const r = buildFromText(spec("## Errors\n\n| Status | Code | Text |\n|---|---|---|\n| 401 | A_CODE | a |\n\nAn older description of the same list gives other statuses: A_CODE 400, GONE_CODE 500."), "spec.md");
    expect(r.model?.errors.catalogue.map((e) => `${e.code} ${e.status}/${e.altStatus}`)).toEqual(["A_CODE 401/400"]);
    expect(r.diagnostics.filter((d) => d.code === "unknown-reference").map((d) => d.message)).toEqual([
      "Unknown error code of the older description (not in the system errors table) 'GONE_CODE'",
    ]);
  });
});

describe("pointers and labels in other layouts", () => {
  it("'Parameters: `x` — object, required. Its members:' and a members table; a resource that points at the method", () => {
    const model = modelOf(
      spec(
        "## Resources\n\n### Resources described with their methods\n\n- **Calendar user settings** — see `xy.settings.set` in the method reference.",
        "#### `xy.settings.set`\n\n- **Scope:** `x`\n- **Parameters:** `settings` — object, required. Its members:\n\n| Member | Type | Description |\n|---|---|---|\n| `view` | string | the view |\n| `showTasks` | boolean | |\n",
      ),
    );
    const m = model.methods.find((x) => x.name === "xy.settings.set");
    expect(m?.params.map((p) => `${p.name}${p.required ? "*" : ""}`)).toEqual(["settings*"]);
    expect(m?.params[0]?.type).toEqual({ kind: "ref", resource: "CalendarUserSettings" });
    expect(members(resourceOf(model, "CalendarUserSettings"))).toEqual(["view: string?", "showTasks: boolean?"]);
  });

  it("a resource section that says 'See [Title xy.settings.set](#anchor) under Methods.'", () => {
    const model = modelOf(
      spec(
        "## Data Structures\n\n### Calendar User Settings\n\nSee [Set Calendar Settings xy.settings.set](#set-calendar-settings) under Methods.",
        "**xy.settings.set**. Scope `x`. `settings`* object:\n\n| Member | Type | Meaning |\n|---|---|---|\n| view | string | the view |\n",
      ),
    );
    expect(members(resourceOf(model, "CalendarUserSettings"))).toEqual(["view: string?"]);
  });
});

describe("field lists as bullets of a resource's section", () => {
  it("'ID, SITE_ID, ACTIVE (Y/N) — all of these are strings.' and 'The SMTP fields may be null'", () => {
    const model = modelOf(
      spec("## Data Structures\n\n### Mail Service\n\nItem of the `a.b` result.\n\n- ID, SITE_ID, ACTIVE (Y/N), SORT — all of these are strings.\n- SMTP_SERVER, SMTP_PORT.\n\nThe SMTP fields may be null when they are not set."),
    );
    const r = resourceOf(model, "MailService");
    expect(members(r)).toEqual(["ID: string", "SITE_ID: string", "ACTIVE: string", "SORT: string", "SMTP_SERVER: unknown", "SMTP_PORT: unknown"]);
    expect(r.type.kind === "object" ? r.type.members.filter((f) => f.nullable).map((f) => f.name) : []).toEqual(["SMTP_SERVER", "SMTP_PORT"]);
    expect(r.type.kind === "object" ? r.type.members.find((f) => f.name === "ACTIVE")?.type : null).toMatchObject({ enum: ["Y", "N"] });
  });
});

describe("the values of a keyed map, written after the table or in words (issue 26)", () => {
  it("reads them from a field list; 'and others' is words, never a field; an item that is no name keeps the map open", async () => {
    const { readFieldList, readKeyedObject } = await import("../../generator/read/field-lists.js");
    expect(readFieldList("ID, NAME, and `ANSWERS` (keyed by answer id)", null, undefined).fields.map((f) => [f.name, f.type.kind])).toEqual([
      ["ID", "unknown"],
      ["NAME", "unknown"],
      ["ANSWERS", "object"],
    ]);
    const words = readFieldList("ID, NAME, and others", null, undefined);
    expect(words.fields.map((f) => f.name)).toEqual(["ID", "NAME"]);
    expect(words.unread).toBe(1);
    // "Each question has ID, …": the map's values; one item that is no field name, and the form is not this one.
    const keyed = readKeyedObject("keyed by question id. Each question has ID, QUESTION, and ANSWERS keyed by answer id");
    expect(keyed?.kind === "object" && keyed.additional?.kind === "object" ? keyed.additional.members.map((f) => f.name) : null).toEqual(["ID", "QUESTION", "ANSWERS"]);
    expect(readKeyedObject("keyed by question id. Each question has the fields listed below")).toBeNull();
  });
});

describe("a method's bullets in a careful writer's labels (issue 26, this session's rows)", () => {
  const one = (endpoints: string, name = "ab.cd", version: "legacy" | "v3" = "legacy") => {
    const r = buildFromText(spec("", endpoints), "spec.md");
    const m = r.model?.methods.find((x) => x.name === name && x.version === version);
    if (!m) throw new Error(`no method ${name}`);
    return { m: withoutSources(m), diagnostics: r.diagnostics };
  };

  it("**Body:** a `fields` object with …, **Idempotency:** the `Idempotency-Key` header is honored, **Not shown:** the full field list and the response", () => {
    const { m, diagnostics } = one("#### `ab.cd` (3.0)\n\n- **Scope:** `x`\n- **Body:** a `fields` object with `title`, `creatorId`.\n- **Idempotency:** the `Idempotency-Key` header is honored.\n\n> **Not shown:** the full field list and the response.\n", "ab.cd", "v3");
    expect(m.params.map((p) => [p.name, p.type.kind === "object" ? p.type.members.map((x) => x.name) : p.type.kind])).toEqual([["fields", ["title", "creatorId"]]]);
    expect(m.idempotencyKey).toBe(true);
    expect(m.result?.type).toEqual({ kind: "unknown", note: "not shown" });
    expect(diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
  });

  it("**Body:** `taskId`, integer: a type after the comma is the type; words after it stay the meaning", () => {
    expect(one("#### `ab.cd` (3.0)\n\n- **Scope:** `x`\n- **Body:** `taskId`, integer.\n- **Returns:** the task in `result.item`.\n", "ab.cd", "v3").m.params.map((p) => [p.name, p.type])).toEqual([["taskId", { kind: "primitive", type: "integer" }]]);
    expect(one("**ab.cd**. Scope `x`. Parameters: `ID`, the record to read.").m.params.map((p) => [p.name, p.type.kind, p.description])).toEqual([["ID", "unknown", "the record to read"]]);
    expect(one("#### `ab.cd` (3.0)\n\n- **Scope:** `x`\n- **Returns:** the task in `result.item`.\n", "ab.cd", "v3").m.result?.key).toBe("item");
  });

  it("'— deprecated' then 'Use `x` instead.', and 'The order of the parameters … must be preserved'", () => {
    const { m } = one("#### `ab.cd` — deprecated\n\n> **Deprecated.** Use `cd.ef` instead.\n\n- **Scope:** `x`\n- **Parameters:** `ID` (the id) and `TEXT` (the text). The order of the parameters in the request must be preserved, otherwise the call fails. Samples also pass `FIELDS` with the member `POST`.\n");
    expect(m.deprecated?.replacement).toBe("cd.ef");
    expect(m.constraints.map((c) => [c.kind, "params" in c ? c.params : []])).toEqual([["keep-order", ["ID", "TEXT"]]]);
    expect(m.params.map((p) => p.name)).toEqual(["ID", "TEXT", "FIELDS"]);
    // Of a method not marked deprecated, "Use `cd.ef` instead." gives no replacement.
    expect(one("#### `ab.cd`\n\n- **Scope:** `x`\n\nUse `cd.ef` instead.\n").m.deprecated).toBeNull();
  });

  it("a hurried developer's: `| In | Name | Notes |` with a header row, '→ use `x`', 'Keep param order', 'w/ member', '(int)', 'incl.', '+'", () => {
    const add = one("#### ab.cd (3.0)\n\nScope `x`.\n\n| In | Name | Notes |\n|---|---|---|\n| body | `fields` | obj w/ `title`, `creatorId`. Sent as JSON |\n| header | `Idempotency-Key` | honored |\n\nFull field list + response: not shown.\n", "ab.cd", "v3");
    expect(add.m.params.map((p) => [p.name, p.type.kind === "object" ? p.type.members.map((x) => x.name) : p.type.kind, p.description])).toEqual([["fields", ["title", "creatorId"], "Sent as JSON"]]);
    expect(add.m.idempotencyKey).toBe(true);
    expect(add.m.result?.type).toEqual({ kind: "unknown", note: "not shown" });
    expect(add.diagnostics.filter((d) => d.code === "unplaced" || d.code === "unknown-table-column")).toEqual([]);
    // Another header is no fact: the ledger says its row is not placed.
    const other = one("#### ab.cd (3.0)\n\nScope `x`.\n\n| In | Name | Notes |\n|---|---|---|\n| header | `X-Trace` | sent back |\n", "ab.cd", "v3");
    expect(other.diagnostics.filter((d) => d.code === "unplaced").map((d) => d.line)).toEqual([15]);
    const old = one("#### ab.cd — DEPRECATED\n\n→ use `cd.ef`. Scope `x`.\n\n| Param | Notes |\n|---|---|\n| `ID` | id |\n| `TEXT` | text |\n\n- Keep param order in the req, otherwise call fails.\n- Samples also pass `FIELDS` w/ member `POST`.\n- Result: id of new comment (int).\n");
    expect(old.m.deprecated?.replacement).toBe("cd.ef");
    expect(old.m.constraints.map((c) => c.kind)).toEqual(["keep-order"]);
    expect(old.m.params.map((p) => [p.name, p.type.kind])).toEqual([["ID", "unknown"], ["TEXT", "unknown"], ["FIELDS", "object"]]);
    expect(old.m.result?.type).toEqual({ kind: "primitive", type: "integer" });
    // "incl." is no sentence end: `archiveLink` is the result's member, not a parameter.
    const get = one("#### ab.cd (3.0)\n\nScope `x`.\n\n| Body param | Type |\n|---|---|\n| `taskId` | int |\n\nResp: `result.item` = the task; incl. `archiveLink` (link to the archive).\n", "ab.cd", "v3");
    expect(get.m.params.map((p) => p.name)).toEqual(["taskId"]);
    expect(get.m.result?.key).toBe("item");
    expect(JSON.stringify(get.m.result?.type)).toContain("archiveLink");
  });

  it("the platform's own style: 'Contains `a` (`integer`) and `b` (`string`)', 'The header `Idempotency-Key` is honored.', 'The full field list and the response are not shown.'", () => {
    const { m } = one("#### ab.cd (3.0)\n\nScope `x`.\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **fields**<br>`object` | Contains `taskId` (`integer`) and `text` (`string`) |\n\nThe header `Idempotency-Key` is honored.\n\nThe full field list and the response are not shown.\n", "ab.cd", "v3");
    const fields = m.params[0]?.type;
    expect(fields?.kind === "object" ? fields.members.map((x) => [x.name, x.type]) : []).toEqual([
      ["taskId", { kind: "primitive", type: "integer" }],
      ["text", { kind: "primitive", type: "string" }],
    ]);
    expect(m.idempotencyKey).toBe(true);
    expect(m.result?.type).toEqual({ kind: "unknown", note: "not shown" });
    const doc = one("#### ab.cd (3.0)\n\nScope `x`.\n\n##### Response Handling\n\nThe OpenAPI document has the members `openapi`, `paths`.\n", "ab.cd", "v3").m.result?.type;
    expect(doc?.kind === "object" ? doc.members.map((x) => x.name) : doc).toEqual(["openapi", "paths"]);
    expect(one("#### ab.cd (3.0)\n\nScope `x`.\n\n##### Response Handling\n\nThe shape of the response is not shown.\n", "ab.cd", "v3").m.result?.type).toEqual({ kind: "unknown", note: "not shown" });
  });

  it("a map in three spellings, `{field: ASC|DESC}` after the table, and a string whose meaning is 'URL'", () => {
    const { m } = one(
      "#### ab.cd\n\n- **Scope:** `x`\n\n| Parameter | Type | Required | Description |\n|---|---|---|---|\n| `HANDLER` | string | no | URL |\n| `NAME` | string, or object mapping language code to string | no | |\n| `TITLE` | str, or obj lang code → str | | |\n| `ORDER` | object | no | form: see below |\n\n`ORDER` has the form `{field: ASC|DESC}`.\n",
    );
    const map = { kind: "object", members: [], additional: { kind: "primitive", type: "string" } };
    expect(m.params.map((p) => [p.name, p.type])).toEqual([
      ["HANDLER", { kind: "primitive", type: "string", format: "uri" }],
      ["NAME", { kind: "union", options: [{ kind: "primitive", type: "string" }, { ...map, keyDescription: "language code" }] }],
      ["TITLE", { kind: "union", options: [{ kind: "primitive", type: "string" }, { ...map, keyDescription: "lang code" }] }],
      ["ORDER", { kind: "object", members: [], keyDescription: "field", additional: { kind: "primitive", type: "string", enum: ["ASC", "DESC"] } }],
    ]);
    // One span per value: "Of the form `{field: ASC}` or `{field: DESC}`".
    const per = one("#### ab.cd\n\n- **Scope:** `x`\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **ORDER**<br>`object` | Of the form `{field: ASC}` or `{field: DESC}` |\n").m.params[0]?.type;
    expect(per).toEqual({ kind: "object", members: [], keyDescription: "field", additional: { kind: "primitive", type: "string", enum: ["ASC", "DESC"] } });
    // "URL of the record" is words about a string, not its format.
    expect(one("#### ab.cd\n\n- **Scope:** `x`\n\n| Parameter | Type | Required | Description |\n|---|---|---|---|\n| `RECORD_URL` | string | no | URL of the record |\n").m.params[0]?.type).toEqual({ kind: "primitive", type: "string" });
  });

  it("errors with the code in a `Code / message` cell, or in a `Status | Description` table's words; 'each key … each value is an object with'", () => {
    const settings = "| Parameter | Type | Required | Description |\n|---|---|---|---|\n| `SETTINGS` | object | yes | each key is a setting name; each value is an object with `TYPE` (the source) and `VALUE` (the code) |\n";
    const combined = one(`#### ab.cd\n\n- **Scope:** \`x\`\n\n${settings}\n**Errors**\n\n| HTTP status | Situation | Code / message |\n|---|---|---|\n| 403 | no right | |\n| 400 | not found | code \`ERROR_CHECK_FAILURE\`, text \`Pay system not found\` |\n`).m;
    const words = one("#### ab.cd\n\n- **Scope:** `x`\n\n##### Error Handling\n\n| **Status** | **Description** |\n|---|---|\n| 403 | No right |\n| 400 | The pay system is not found: code `ERROR_CHECK_FAILURE`, text `Pay system not found` |\n").m;
    for (const m of [combined, words]) {
      expect(m.errors.map((e) => [e.status, e.code, e.text])).toEqual([
        [403, null, null],
        [400, "ERROR_CHECK_FAILURE", "Pay system not found"],
      ]);
    }
    expect(words.errors[1]?.cause).toBe("The pay system is not found");
    const t = combined.params[0]?.type;
    expect(t?.kind === "object" ? [t.keyDescription, t.additional?.kind === "object" ? t.additional.members.map((x) => x.name) : null] : null).toEqual(["setting name", ["TYPE", "VALUE"]]);
  });

  it("a dash for a type with the type in the words, 'keyed by …, each with', and a quoted text then 'or …' in a cause", () => {
    const { m } = one(
      "#### ab.cd\n\n- **Scope:** `x`\n\n| Parameter | Type | Required | Description |\n|---|---|---|---|\n| `SITE_ID` | — | no | list of sites |\n| `VISIBLE` | — | no | visibility in the list |\n| `LANG_ALL` | object | no | keyed by language code, each with `TITLE`, `NAME` |\n\n**Errors**\n\n| HTTP status | Code | Message / cause |\n|---|---|---|\n| 400 | `ERROR_CORE` | `Handler already binded`, or a binding already in progress |\n\n| Status | Code | Description |\n|---|---|---|\n| 400 | `ERROR_X` | `Wrong id`, or no id at all |\n| 400 | `ERROR_Y` | `taskId` missing |\n",
    );
    expect(m.params.map((p) => [p.name, p.type.kind === "object" ? [p.type.keyDescription, p.type.additional?.kind] : p.type])).toEqual([
      ["SITE_ID", { kind: "array", items: { kind: "unknown", note: "sites" } }],
      ["VISIBLE", { kind: "unknown" }],
      ["LANG_ALL", ["language code", "object"]],
    ]);
    expect(m.errors.map((e) => [e.code, e.text, e.cause])).toEqual([
      ["ERROR_CORE", "Handler already binded", "or a binding already in progress"],
      ["ERROR_X", "Wrong id", "or no id at all"],
      ["ERROR_Y", null, "`taskId` missing"],
    ]);
  });

  it("methods that need an application context, in three writers' words", () => {
    for (const words of [
      "Some methods require an application context and reject webhook calls with `WRONG_AUTH_TYPE`. Examples: `ab.cd`, `ef.gh`.",
      "Webhooks fail w/ `WRONG_AUTH_TYPE` on methods needing app context, e.g. `ab.cd`, `ef.gh`.",
      "Some methods need an application context and fail for webhooks with `WRONG_AUTH_TYPE`, for example `ab.cd`, `ef.gh`.",
    ]) {
      const r = buildFromText(spec(`## Authentication\n\n- ${words}`, "**ab.cd**. Scope `x`.\n\n**ef.gh**. Scope `x`."), "spec.md");
      expect(r.model?.methods.filter((m) => m.applicationContextOnly).map((m) => m.name), words).toEqual(["ab.cd", "ef.gh"]);
    }
  });

  it("a bold-titled paragraph with its method inside a resource's section is a resource of its own", () => {
    const model = modelOf(
      spec("## Resources\n\n### Mail service\n\n**Item of:** `ab.cd`.\n\n| Field | Type |\n|---|---|\n| `ID` | string |\n\n**Field labels** (`ef.gh`): an object of localized strings keyed by `ID`, `NAME`.\n", "**ab.cd**. Scope `x`.\n\n**ef.gh**. Scope `x`. Result: label object."),
    );
    expect(members(resourceOf(model, "MailService"))).toEqual(["ID: string"]);
    const labels = model.resources.find((r) => r.returnedBy.includes("ef.gh"));
    expect(labels && labels.type.kind === "object" ? labels.type.members.map((m) => m.name) : null).toEqual(["ID", "NAME"]);
  });

  it("resource tables: a `Type / notes` column, and a dash Type cell whose Notes open with the type", () => {
    const model = modelOf(
      spec("## Resources\n\n### Mail service\n\n**Item of:** `ab.cd`.\n\n| Field | Type / notes |\n|---|---|\n| ID | str |\n| ACTIVE | Y/N |\n\n### Line\n\n**Item of:** `ef.gh`.\n\n| Field | Type | Notes |\n|---|---|---|\n| `LOGIN` | — | Y/N |\n| `HOST` | — | the host |\n", "**ab.cd**. Scope `x`.\n\n**ef.gh**. Scope `x`."),
    );
    expect(members(resourceOf(model, "MailService"))).toEqual(["ID: string", "ACTIVE: string"]);
    const line = resourceOf(model, "Line");
    expect(line.type.kind === "object" ? line.type.members.map((m) => [m.name, m.type.kind === "primitive" ? m.type.enum : m.type.kind]) : []).toEqual([
      ["LOGIN", ["Y", "N"]],
      ["HOST", "unknown"],
    ]);
  });

  it("the platform's own style: a name cell with no type line, 'administrator, or owner …', 'HTTP status **400**, empty code, message `…`'", () => {
    const { m } = one(
      "#### Update ab.cd\n\n> Scope: `x`\n>\n> Who can execute the method: administrator, or owner of the group\n\n##### Method Parameters\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **ID***<br>`integer` | |\n| **START** | ISO 8601 |\n| **VISIBLE** | Visibility in the list |\n\n##### Error Handling\n\n- HTTP status **400**, empty code, message `Wrong group ID`.\n",
    );
    expect(m.params.map((p) => [p.name, p.type])).toEqual([
      ["ID", { kind: "primitive", type: "integer" }],
      ["START", { kind: "primitive", type: "string", format: "date-time" }],
      ["VISIBLE", { kind: "unknown" }],
    ]);
    expect(m.access?.who).toBe("administrator or owner of the group");
    expect(m.errors.map((e) => [e.status, e.code, e.text])).toEqual([[400, "", "Wrong group ID"]]);
  });

  it("'**Returns:** `{ID}`', '`ERROR_CORE` with one of: …', '`1` — enable (default); `0` — disable', 'users w/ the right …'", () => {
    const { m } = one(
      "#### ab.cd\n\nScope `x` · users w/ the right to change documents.\n\n| Parameter | Type | Required | Description |\n|---|---|---|---|\n| `status` | integer | no | `1` — enable (default); `0` — disable |\n| `select` | array | no | `*` — all fields; `CHAT_ID` — by default |\n\n**Returns:** `{ID}`.\n\n**Errors**\n- `ERROR_CORE` with one of: `NUMBER should not be empty`, `Line already exists`\n",
    );
    expect(m.access?.who).toBe("users with the right to change documents");
    const status = m.params[0]?.type;
    expect(status?.kind === "primitive" ? [status.enum, m.params[0]?.default?.value] : null).toEqual([[1, 0], 1]);
    expect(m.result?.type.kind === "object" ? m.result.type.members.map((x) => x.name) : m.result?.type).toEqual(["ID"]);
    expect(m.errors.map((e) => [e.code, e.text])).toEqual([
      ["ERROR_CORE", "NUMBER should not be empty"],
      ["ERROR_CORE", "Line already exists"],
    ]);
  });

  it("a table of the areas with 3.0 methods names their groups as 3.0 methods, except those that stay legacy", () => {
    const r = buildFromText(
      spec("## Versions\n\n**Areas that have 3.0 methods**\n\n| Area | What's in it |\n|---|---|\n| company structure | group `humanresources.*`: departments (`department.*` methods stay legacy) |\n| work time | the `timeman.*` group. The `timeman.old.*` methods remain legacy |\n"),
      "spec.md",
    );
    const named = (r.model?.methods ?? []).filter((m) => !m.described).map((m) => `${m.version}:${m.name}`).sort();
    expect(named).toEqual(["legacy:department.*", "legacy:timeman.old.*", "v3:humanresources.*", "v3:timeman.*"]);
    expect(r.diagnostics.filter((d) => d.code === "unread-text" || d.code === "unplaced")).toEqual([]);
  });

  it("'The method is deprecated. Use `x` instead.', 'The parameters must be passed in this order', a result '(`integer`)'", () => {
    const { m } = one("#### Add ab.cd\n\n> Scope: `x`\n\n> Warning\n>\n> The method is deprecated. Use `cd.ef` instead.\n\n##### Method Parameters\n\n| **Name** | **Description** |\n|---|---|\n| **ID** | Task id |\n| **TEXT** | Text |\n\nThe parameters must be passed in this order, otherwise the call fails.\n\n##### Response Handling\n\nThe id of the new comment (`integer`).\n");
    expect(m.deprecated?.replacement).toBe("cd.ef");
    expect(m.constraints.map((c) => c.kind)).toEqual(["keep-order"]);
    expect(m.result?.type).toEqual({ kind: "primitive", type: "integer" });
  });

  it("'**id**<br>`array` of integers', 'Always `true`.', texts parted by ' / '", () => {
    const { m } = one("#### Clear ab.cd\n\n> Scope: `x`\n\n##### Method Parameters\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **id**<br>`array` of integers | Record ids |\n\n##### Response Handling\n\nAlways `true`.\n\n##### Error Handling\n\nErrors, HTTP 400, code `ERROR_CORE`: `PHONE_NUMBER is empty` / `CRM is not installed.`\n");
    expect(m.params.map((p) => [p.name, p.type, p.description])).toEqual([["id", { kind: "array", items: { kind: "primitive", type: "integer" } }, "Record ids"]]);
    expect(m.result?.type).toEqual({ kind: "primitive", type: "boolean", enum: [true] });
    expect(one("#### ab.cd\n\nScope `x`. Result: bool `true`.\n").m.result?.type).toEqual({ kind: "primitive", type: "boolean", enum: [true] });
    expect(m.errors.map((e) => [e.status, e.code, e.text])).toEqual([
      [400, "ERROR_CORE", "PHONE_NUMBER is empty"],
      [400, "ERROR_CORE", "CRM is not installed."],
    ]);
  });

  it("what the review of these forms found misread stays words (a table of call statuses, 'for example `{K: v}`', a dash type before words, a negated context rule)", () => {
    const calls = one("#### ab.cd\n\n- **Scope:** `x`\n\nCall statuses:\n\n| Status | Description |\n|---|---|\n| 200 | successful call |\n| 486 | busy |\n").m;
    expect(calls.errors).toEqual([]);
    const words = one(
      "#### ab.cd\n\n- **Scope:** `x`\n\n| Parameter | Type | Required | Description |\n|---|---|---|---|\n| `FIELDS` | object | yes | task fields, for example `{TITLE: New task}` |\n| `ENTITY_ID` | — | yes | object id of the element |\n| `LIMIT` | — | no | number of records, default 50 |\n| `OPTIONS` | object | no | member `minTimeout` (seconds) |\n\n`OPTIONS` values: member `minTimeout` (seconds).\n\n**Errors**\n\n| HTTP status | Code | Message / cause |\n|---|---|---|\n| 400 | `ERROR_ARGUMENT` | `taskId`, `users` or both not given |\n",
    ).m;
    expect(words.params.map((p) => [p.name, p.type.kind, p.type.kind === "object" ? [p.type.keyDescription ?? null, p.type.members.map((x) => x.name)] : p.description])).toEqual([
      ["FIELDS", "object", [null, []]],
      ["ENTITY_ID", "unknown", "object id of the element"],
      ["LIMIT", "unknown", "number of records, default 50"],
      ["OPTIONS", "object", [null, ["minTimeout"]]],
    ]);
    expect(words.errors.map((e) => [e.code, e.text, e.cause])).toEqual([["ERROR_ARGUMENT", null, "`taskId`, `users` or both not given"]]);
    const negated = buildFromText(spec("## Authentication\n\n`WRONG_AUTH_TYPE` is never returned by methods that do not need an application context, e.g. `ab.cd`.", "**ab.cd**. Scope `x`."), "spec.md");
    expect(negated.model?.methods.find((m) => m.name === "ab.cd")?.applicationContextOnly).toBe(false);
    const country = one("#### ab.cd\n\n- **Scope:** `x`\n\n##### Error Handling\n\n| Status | Description |\n|---|---|\n| 400 | The country code `RU` is not supported |\n").m;
    expect(country.errors.map((e) => [e.status, e.code, e.cause])).toEqual([[400, null, "The country code `RU` is not supported"]]);
  });

  it("'member `minTimeout` — seconds between notifications, default 1': the member and its default after a dash", () => {
    const { m } = one("#### ab.cd\n\n- **Scope:** `x`\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **options**<br>`object` | For `ONOFFLINEEVENT`: member `minTimeout` — seconds between notifications, default 1 |\n");
    const t = m.params[0]?.type;
    expect(t?.kind === "object" ? t.members.map((x) => [x.name, x.default?.value]) : null).toEqual([["minTimeout", 1]]);
  });

  it("a method header no reader reads ends the method above it: what follows is no method's (property counterexample)", () => {
    const r = buildFromText(spec("", "**ab.cd**. Scope `x`.\n\n***f.gh** (deprecated). Scope `x`.\n\nErrors of `*ij.kl`: not shown."), "spec.md");
    const unplaced = r.diagnostics.filter((d) => d.code === "unplaced");
    expect(unplaced.length).toBeGreaterThan(0);
    expect(unplaced.map((d) => d.subject?.method)).toEqual(unplaced.map(() => undefined));
  });
});

describe("shapes, members and values in other hands (issue 26, 2026-11-27)", () => {
  /** A nested object is lifted into a resource of its own: follow the reference. */
  const deref = (model: Model, t: Resource["type"] | undefined) => (t?.kind === "ref" ? model.resources.find((r) => r.name === t.resource)?.type : t);
  const shapeMembers = (model: Model, name: string) => {
    const t = resourceOf(model, name).type;
    return t.kind === "object" ? t.members.map((m) => `${m.name}: ${m.type.kind === "primitive" ? `${m.type.type}${m.type.enum ? `(${m.type.enum.join("|")})` : ""}` : m.type.kind}`) : [];
  };

  it("a shape of its own: 'A reminder object has …', 'Reminder obj:' or 'Reminder object:' with its table, named after the area's words", () => {
    const settings = "`settings`* object:\n\n| Member | Type | Meaning |\n|---|---|---|\n| defaultReminders | object | members `fullDay` and `withTime`, each an array of reminders |\n\n";
    const prose = modelOf(spec("", `### 7.4 Calendar (legacy)\n\n**ab.cd**. Scope \`x\`. ${settings}A reminder object has \`type\` (string: \`min\`, \`hour\`) and \`count\` (integer).`));
    expect(shapeMembers(prose, "CalendarReminder")).toEqual(["type: string(min|hour)", "count: integer"]);
    for (const label of ["Reminder obj:", "Reminder object:"]) {
      const model = modelOf(spec("", `**ab.cd**. Scope \`x\`. ${settings}${label}\n\n| Key | Type | Values |\n|---|---|---|\n| \`type\` | str | \`min\`, \`hour\` |\n| \`count\` | int | |`));
      expect(shapeMembers(model, "AreaReminder")).toEqual(["type: string(min|hour)", "count: integer"]);
      // The table is the shape's, not more parameters of the method.
      expect(model.methods.find((m) => m.name === "ab.cd")?.params.map((p) => p.name)).toEqual(["settings"]);
    }
  });

  it("'members `a` + `b`, each = array of X', 'Keys … ; each value is …', '→ value = …', 'keyed by …; each value has A, B'", () => {
    const model = modelOf(
      spec(
        "## Resources\n\n### Settings\n\n| Field | Type | Description |\n|---|---|---|\n| langAll | object | Keyed by language code; each value has TITLE, DESCRIPTION |",
        "**ab.cd**. Scope `x`. `settings`* object:\n\n| Member | Type | Meaning |\n|---|---|---|\n| reminders | obj | members `fullDay` + `withTime`, each = array of reminders |\n| sections | object | Keys `user<id>` or `group<id>`; each value is a calendar id |\n| other | obj | keys `user<id>` or `group<id>` → value = calendar id |",
      ),
    );
    const settings = deref(model, model.methods.find((m) => m.name === "ab.cd")?.params[0]?.type);
    const by = (n: string) => deref(model, settings?.kind === "object" ? settings.members.find((m) => m.name === n)?.type : undefined);
    const reminders = by("reminders");
    expect(reminders?.kind === "object" ? reminders.members.map((m) => [m.name, m.type.kind]) : null).toEqual([["fullDay", "array"], ["withTime", "array"]]);
    expect(by("sections")).toMatchObject({ kind: "object", keyNames: ["user<id>", "group<id>"], additional: { kind: "unknown", note: "a calendar id" } });
    expect(by("other")).toMatchObject({ kind: "object", keyNames: ["user<id>", "group<id>"], additional: { kind: "unknown", note: "calendar id" } });
    const t = resourceOf(model, "Settings").type;
    const lang = t.kind === "object" ? t.members[0]?.type : undefined;
    const value = deref(model, lang?.kind === "object" ? lang.additional : undefined);
    expect(value?.kind === "object" ? value.members.map((m) => m.name) : null).toEqual(["TITLE", "DESCRIPTION"]);
  });

  it("a string whose whole meaning is 'URL' or 'ISO 8601' has that format; 'URL with the scheme …' stays words", () => {
    const model = modelOf(spec("## Resources\n\n### Handler\n\n| Field | Type | Description |\n|---|---|---|\n| `handler` | string | URL |\n| `signed_date` | string | ISO 8601 |\n| `other` | string | URL with the scheme `https` |"));
    const t = resourceOf(model, "Handler").type;
    expect(t.kind === "object" ? t.members.map((m) => [m.name, m.type.kind === "primitive" ? (m.type.format ?? null) : null]) : null).toEqual([["handler", "uri"], ["signed_date", "date-time"], ["other", null]]);
  });

  it("'Members of `X`:' or '`X`:' before a table: the table is that field's members; 'Contains ID (integer), …' in its cell", () => {
    for (const lead of ["Members of `ASSIGNED_BY`:", "`ASSIGNED_BY`:"]) {
      const model = modelOf(spec(`## Resources\n\n### Match\n\n| Field | Type | Description |\n|---|---|---|\n| \`NAME\` | string | name |\n| \`ASSIGNED_BY\` | object | see below |\n\n${lead}\n\n| Member | Type / values |\n|---|---|\n| \`ID\` | integer |\n| \`STATUS\` | one of \`OPENED\`, \`CLOSED\` |`));
      expect(shapeMembers(model, "Match")).toEqual(["NAME: string", "ASSIGNED_BY: ref"]);
      const by = resourceOf(model, "Match").type;
      const inner = deref(model, by.kind === "object" ? by.members[1]?.type : undefined);
      expect(inner?.kind === "object" ? inner.members.map((m) => [m.name, m.type.kind === "primitive" ? (m.type.enum ?? m.type.type) : m.type.kind]) : null).toEqual([["ID", "integer"], ["STATUS", ["OPENED", "CLOSED"]]]);
    }
    const contains = modelOf(spec("## Resources\n\n### Match\n\n| Field | Type | Description |\n|---|---|---|\n| **ASSIGNED_BY** | object | Contains ID (integer), and WORK_PHONE, MOBILE (strings or null) |"));
    const t = resourceOf(contains, "Match").type;
    const inner = deref(contains, t.kind === "object" ? t.members[0]?.type : undefined);
    expect(inner?.kind === "object" ? inner.members.map((m) => [m.name, m.type.kind === "primitive" ? m.type.type : m.type.kind, m.nullable]) : null).toEqual([["ID", "integer", false], ["WORK_PHONE", "string", true], ["MOBILE", "string", true]]);
  });

  it("values with a note between them: '`CONTACT`, `LEAD` (only an active lead) or `COMPANY`' is three values, the words kept", () => {
    const model = modelOf(spec("## Resources\n\n### Match\n\n| Field | Type | Description |\n|---|---|---|\n| `TYPE` | string | `CONTACT`, `LEAD` (only an active lead) or `COMPANY` |"));
    const t = resourceOf(model, "Match").type;
    const f = t.kind === "object" ? t.members[0] : undefined;
    expect(f?.type).toEqual({ kind: "primitive", type: "string", enum: ["CONTACT", "LEAD", "COMPANY"] });
    expect(f?.description).toMatch(/only an active lead/);
  });

  it("'The result of adding a line (`m`) is an object containing `ID` (integer)': the method named, the member typed", () => {
    const model = modelOf(spec("## Resources\n\n### External line\n\nThe result of adding a line (`ab.line.add`) is an object containing `ID` (integer).", "**ab.line.add**. Scope `x`."));
    const r = resourceOf(model, "ExternalLine");
    expect(members(r)).toEqual(["ID: integer"]);
    expect(r.returnedBy).toEqual(["ab.line.add"]);
  });

  it("'Fields A, B. See [Title m](#…) under Methods.' and 'A, B → see Endpoints': the fields are that method's parameters", () => {
    const endpoints = "**ab.cd**. Scope `x`. `CODE`* string; `HANDLER` string URL.";
    for (const section of ["### Provider\n\nFields CODE, HANDLER. See [Update ab.cd](#update-abcd) under Methods.", "### Misc resources\n\n**Provider** — CODE, HANDLER → see Endpoints."]) {
      const model = modelOf(spec(`## Resources\n\n${section}`, endpoints));
      const r = resourceOf(model, "Provider");
      expect(r.type.kind === "object" ? r.type.members.map((m) => [m.name, m.type.kind === "primitive" ? (m.type.format ?? m.type.type) : m.type.kind]) : null).toEqual([["CODE", "string"], ["HANDLER", "uri"]]);
    }
  });

  it("a name cell's type line '`string` or `object`' with 'an object of language code to string' in its words", () => {
    const model = modelOf(spec("", "#### Update ab.cd\n\n> Scope: `x`\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **NAME**<br>`string` or `object` | A string, or an object of language code to string |\n| **OTHER**<br>`string` or `object` | A string or an object |"));
    const [name, other] = model.methods.find((m) => m.name === "ab.cd")?.params ?? [];
    expect(name?.type).toEqual({ kind: "union", options: [{ kind: "primitive", type: "string" }, { kind: "object", members: [], additional: { kind: "primitive", type: "string" }, keyDescription: "language code" }] });
    // Words that do not say what the object is leave it bare.
    expect(other?.type).toEqual({ kind: "union", options: [{ kind: "primitive", type: "string" }, { kind: "object", members: [] }] });
  });

  it("'By default all fields except user fields are returned.' is the parameter's default, in words", () => {
    const model = modelOf(spec("", "**ab.cd**. Scope `x`.\n\n| Parameter | Type | Description |\n|---|---|---|\n| `select` | array | Field names. By default all fields except user fields are returned. |"));
    expect(model.methods.find((m) => m.name === "ab.cd")?.params[0]?.default).toEqual({ text: "all fields except user fields" });
  });

  it("under Error Handling: a paragraph 'HTTP status: **400**, code `X`, with a text …' and 'Some errors come with HTTP 200, …' are errors; a label before a table is not", () => {
    const r = buildFromText(spec("", "#### List ab.cd\n\n> Scope: `x`\n\nNo parameters.\n\n##### Error Handling\n\nHTTP status: **400**, code `ERROR_CORE`, with a text meaning that nothing was found.\n\nSome errors come with HTTP 200, among them a repeated registration.\n\nHTTP status: **403**.\n\n| Code | Description |\n|---|---|\n| `ACCESS_DENIED` | not allowed |"), "spec.md");
    const m = r.model?.methods.find((x) => x.name === "ab.cd");
    expect(m?.errors.map((e) => [e.code, e.statuses])).toEqual([["ERROR_CORE", [400]], [null, [200]], ["ACCESS_DENIED", [403]]]);
    // The table's code is the method's: the ledger once took a heading method's subsection for no method's.
    expect(r.diagnostics.filter((d) => d.code === "unplaced" || d.code === "bad-status")).toEqual([]);
  });

  it("a developer's '(→ Allowed actions)' after a result, 'item fields: …' and '(bools: a, b)', 'add result = obj w/ `ID` (int)'", () => {
    const model = modelOf(
      spec(
        "## Resources\n\n### Allowed actions\n\n`allowedActions`: object keyed by user id; value is an object of booleans with keys A, B.\n\n### Task\n\n| Field | Shape |\n|---|---|\n| `checklist` | obj keyed by item id; item fields: id, action (bools: modify, remove) |\n\n### Misc resources\n\n**External line** — add result = obj w/ `ID` (int).",
        "**ab.cd**. Scope `x`. Resp: `result.allowedActions` (→ Allowed actions).\n\n**ab.line.add**. Scope `x`.",
      ),
    );
    expect(model.methods.find((m) => m.name === "ab.cd")?.result?.type).toEqual({ kind: "ref", resource: "AllowedActions" });
    const item = deref(model, (() => {
      const t = resourceOf(model, "Task").type;
      const c = t.kind === "object" ? deref(model, t.members[0]?.type) : undefined;
      return c?.kind === "object" ? c.additional : undefined;
    })());
    const action = deref(model, item?.kind === "object" ? item.members.find((m) => m.name === "action")?.type : undefined);
    expect(action?.kind === "object" ? action.members.map((m) => [m.name, m.type.kind === "primitive" ? m.type.type : m.type.kind]) : null).toEqual([["modify", "boolean"], ["remove", "boolean"]]);
    expect(members(resourceOf(model, "ExternalLine"))).toEqual(["ID: integer"]);
  });

  it("a `Type / notes` cell 'str, Y/N' gives the values; 'SMTP fields may be null when unset.' after a titled resource's table", () => {
    const model = modelOf(spec("## Resources\n\n### Misc resources\n\n**Mail service** (`ab.cd` item):\n\n| Field | Type / notes |\n|---|---|\n| ACTIVE | str, Y/N |\n| SMTP_SERVER | |\n| NAME | str |\n\nSMTP fields may be null when unset."));
    const t = resourceOf(model, "MailService").type;
    expect(t.kind === "object" ? t.members.map((m) => [m.name, m.type.kind === "primitive" ? (m.type.enum ?? m.type.type) : m.type.kind, m.nullable]) : null).toEqual([["ACTIVE", ["Y", "N"], false], ["SMTP_SERVER", "unknown", true], ["NAME", "string", false]]);
  });

  it("'**Returns:** `attach` — see [Attached vote](#…)' is the result under the key `attach`; '**Item of:** `m`' makes the result a list", () => {
    const model = modelOf(
      spec("## Resources\n\n### Attached vote\n\nReturned by `ab.cd` (key `attach`).\n\n| Field | Type |\n|---|---|\n| ID | integer |\n\n### 5.10 Signed document\n\n**Item of:** `ab.tail`.\n\n| Field | Type |\n|---|---|\n| id | integer |", "**ab.cd**. Scope `x`.\n\n**Returns:** `attach` — see [Attached vote](#attached-vote).\n\n**ab.tail**. Scope `x`."),
    );
    const m = model.methods.find((x) => x.name === "ab.cd");
    expect([m?.result?.key, m?.result?.type]).toEqual(["attach", { kind: "ref", resource: "AttachedVote" }]);
    expect(model.methods.find((x) => x.name === "ab.tail")?.result?.type).toEqual({ kind: "array", items: { kind: "ref", resource: "SignedDocument" } });
  });

  it("an `Allowed values / default` column is read before the Description: '| `flag` | string | hide off-hours | `Y`/`N` |'", () => {
    const r = buildFromText(spec("", "**ab.cd**. Scope `x`.\n\n| Parameter | Type | Description | Allowed values / default |\n|---|---|---|---|\n| `flag` | string | hide off-hours | `Y`/`N` |\n| `last` | string | calendar id | default `false` |"), "spec.md");
    const [flag, last] = r.model?.methods.find((m) => m.name === "ab.cd")?.params ?? [];
    expect([flag?.type, flag?.description]).toEqual([{ kind: "primitive", type: "string", enum: ["Y", "N"] }, "hide off-hours"]);
    expect(last?.default).toEqual({ value: "false", text: "false" });
    expect(r.diagnostics.filter((d) => d.code === "unknown-table-column")).toEqual([]);
  });
});

describe("States written as list items (issue 26, 2026-11-27)", () => {
  const states = (body: string) => {
    const r = buildFromText(`# API\n\n## States and transitions\n\n${body}\n\n## Endpoints\n\n### Area\n\n**a.b**. Scope \`x\`.\n`, "spec.md");
    return { rows: (r.model?.states.transitions ?? []).map((t) => [t.subject, t.trigger, t.condition, t.next, t.also]), r };
  };

  it("a bold subject, '(precondition: …)', a dash, the next state and what more the item says", () => {
    expect(
      states(
        "### 6.5 Idempotency records\n\n- **First successful call with a key** (precondition: the key length is valid) — the response is stored for 24 hours. A repeat returns the stored response.\n\n### Handlers (legacy)\n\n- **Widget handler** — `placement.bind` called while the installation is not finished: the handler is hidden. It is shown later.\n- **Event handlers, application updated** — the handlers are kept; binding the same handler again returns `ERROR_CORE`.",
      ).rows,
    ).toEqual([
      ["Idempotency records", "First successful call with a key", "the key length is valid", "the response is stored for 24 hours", "A repeat returns the stored response"],
      ["Widget handler", "`placement.bind`", "the installation is not finished", "the handler is hidden", "It is shown later"],
      ["Event handlers", "application updated", "", "the handlers are kept", "binding the same handler again returns `ERROR_CORE`"],
    ]);
  });

  it("the platform's prose: 'Calling `m`, when …, sets …', '`m` with status 1 (the default), when …, …; …', 'The same method with status 0, …'", () => {
    expect(
      states(
        "### Tasks\n\n- **Pin flag `isPinned`.** Calling `tasks.task.unpin`, when the caller has read access, the poll is on and it is open, sets the flag to `N`. The response carries the task.\n- `ab.cd` with status 1 (the default), when the caller may change documents, enables the link; `publicUrl` holds the link.\n- The same method with status 0, under the same condition, disables the link.\n- `event.offline.get` with `clear=0` reserves a batch under `process_id`.",
      ).rows,
    ).toEqual([
      ["Pin flag `isPinned`", "`tasks.task.unpin`", "the caller has read access, the poll is on and it is open", "sets the flag to `N`", "The response carries the task"],
      ["Tasks", "`ab.cd` with status 1 (the default)", "the caller may change documents", "enables the link", "`publicUrl` holds the link"],
      ["Tasks", "same method with status 0", "the same condition", "disables the link", ""],
      ["Tasks", "`event.offline.get` with `clear=0`", "", "reserves a batch under `process_id`", ""],
    ]);
  });

  it("'Result: `isPinned` becomes `N` …' of the subject `isPinned` is the value; a list after 'Not shown:' stays gaps", () => {
    const { rows, r } = states("**Pin flag `isPinned`**\n- Trigger: `tasks.task.unpin`.\n- Result: `isPinned` becomes `N` in the caller's task list.\n\nNot shown:\n- task status transitions\n- vote transitions other than recall");
    expect(rows).toEqual([["Pin flag `isPinned`", "`tasks.task.unpin`", "", "`N` in the caller's task list", ""]]);
    expect(r.model?.knownGaps.filter((g) => g.kind === "not-shown").map((g) => g.subject)).toEqual(["task status transitions", "vote transitions other than recall"]);
  });
});

describe("results as alternatives, and the last surfaces of the rewrites (issue 26, 2026-11-27)", () => {
  const options = (t: Resource["type"] | undefined) => (t?.kind === "union" ? t.options.map((o) => (o.kind === "object" ? o.members.map((f) => `${f.name}: ${f.type.kind === "primitive" ? f.type.type : f.type.kind}`) : o.kind)) : t?.kind);
  const UNION = [["uploadUrl: string", "fieldName: string"], ["FILE_ID: integer"]];

  it("a result told in a list of conditions, in a table with a `result` column, or in a developer's '→' bullets", () => {
    const list = method("#### Attach ab.cd\n\n> Scope: `x`\n\n##### Response Handling\n\n- When `FILENAME` is passed without `FILE_CONTENT`, `result` contains `uploadUrl` (`string`) and `fieldName` (`string`) for uploading.\n- Otherwise the file is attached and `result.FILE_ID` (`integer`) is returned.");
    expect(options(list.m.result?.type)).toEqual(UNION);
    expect(list.m.notes).toEqual([]);
    const table = method("**ab.cd**. Scope `x`.\n\n**Returns**\n\n| Request contains | `result` |\n|---|---|\n| `FILENAME` without `FILE_CONTENT` | `uploadUrl` (string) and `fieldName` (string), for uploading |\n| any other combination | the file is attached; `result.FILE_ID` (integer) is returned |");
    expect(options(table.m.result?.type)).toEqual(UNION);
    expect(table.m.params).toEqual([]);
    expect(table.r.diagnostics.filter((d) => d.code === "unreadable-parameter" || d.code === "unknown-table-column")).toEqual([]);
    const hurried = method("**ab.cd**. Scope `x`.\n\nResult:\n- `FILENAME` w/o `FILE_CONTENT` → `result` has `uploadUrl` (str) + `fieldName` (str), for uploading\n- otherwise → file attached at once, `result.FILE_ID` (int)");
    expect(options(hurried.m.result?.type)).toEqual(UNION);
    // One alternative that names no members is no alternatives: the items stay what they were.
    const vague = method("**ab.cd**. Scope `x`.\n\n- `result` has `a` (string).\n- otherwise `result` is something else.");
    expect(vague.m.result?.type.kind).not.toBe("union");
  });

  it("'exts `wav`, `mp3`'; 'key = setting name; value = obj w/ `TYPE` (…) + `VALUE` (…)'; 'Avatar in Base64' with no type", () => {
    const { m } = method("**ab.cd**. Scope `x`.\n\n| Param | Type | Notes |\n|---|---|---|\n| `FILENAME` | str | file name; exts `wav`, `mp3` |\n| `SETTINGS` | obj | key = setting name; value = obj w/ `TYPE` (source) + `VALUE` (code) |\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **IMAGE** | Avatar in Base64 |");
    const [file, settings, image] = m.params;
    expect(file?.fileExtensions).toEqual(["wav", "mp3"]);
    expect(settings?.type.kind === "object" && settings.type.additional?.kind === "object" ? [settings.type.keyDescription, settings.type.additional.members.map((x) => x.name)] : null).toEqual(["setting name", ["TYPE", "VALUE"]]);
    expect(image?.type).toEqual({ kind: "primitive", type: "string", format: "byte" });
  });

  it("'Errors, 403 `ACCESS_DENIED`:' before a list: each item an error with that status and code", () => {
    const { m } = method("**ab.cd**. Scope `x`.\n\nErrors, 403 `ACCESS_DENIED`:\n- offline unbinding by non-admin\n- foreign `auth_type` by non-admin");
    expect(m.errors.map((e) => [e.code, e.statuses, e.cause])).toEqual([["ACCESS_DENIED", [403], "offline unbinding by non-admin"], ["ACCESS_DENIED", [403], "foreign `auth_type` by non-admin"]]);
  });

  it("a system errors table's status cell 'not shown' is a gap of the errors, not a warning", () => {
    const r = buildFromText("# API\n\n## Errors\n\n3.0 errors:\n\n| Code | HTTP | Why |\n|---|---|---|\n| SERVICE_X | not shown | body not JSON |\n\n## Endpoints\n\n### Area\n\n**a.b**. Scope `x`.\n", "spec.md");
    expect(r.diagnostics.filter((d) => d.code === "bad-status" || d.code === "unknown-table-column")).toEqual([]);
    expect(r.model?.knownGaps.filter((g) => g.appliesTo.includes("errors")).map((g) => g.subject)).toEqual(["HTTP status of SERVICE_X"]);
    expect(r.model?.errors.catalogue.map((e) => [e.code, e.status, e.cause])).toEqual([["SERVICE_X", null, "body not JSON"]]);
  });

  it("an errors list whose first item opens with its status gives it to the rest; a table row 'others: …' takes the row above's", () => {
    const list = method("**ab.cd**. Scope `x`.\n\n**Errors**\n- HTTP 400, empty code, `Wrong group ID`.\n- Others for insufficient rights.\n- HTTP 403, `ACCESS_DENIED`.");
    expect(list.m.errors.map((e) => [e.code, e.statuses])).toEqual([["", [400]], [null, [400]], ["ACCESS_DENIED", [403]]]);
    const table = method("**ab.cd**. Scope `x`.\n\nErrors:\n\n| HTTP | Code | Msg / cause |\n|---|---|---|\n| 400 | (empty) | `Wrong group ID` |\n| | | others: insufficient rights |\n| | `X` | a code with no status |");
    expect(table.m.errors.map((e) => [e.code, e.statuses])).toEqual([["", [400]], [null, [400]], ["X", []]]);
  });
});

describe("what the review of this round's forms found misread stays what it was (issue 26, 2026-11-27)", () => {
  const states = (body: string) => buildFromText(`# API\n\n## States and transitions\n\n${body}\n\n## Endpoints\n\n### Area\n\n**a.b**. Scope \`x\`.\n`, "spec.md").model?.states;

  it("a States bullet that is a statement is a note; a bold paragraph before a list of sentences is their subject", () => {
    const notes = states("### Task lifecycle\n\n- Statuses are stored as integers.\n- `tasks.task.complete` is idempotent; calling it twice is harmless.");
    expect(notes?.transitions).toEqual([]);
    expect(notes?.notes.map((n) => n.text)).toEqual(["Statuses are stored as integers.", "`tasks.task.complete` is idempotent; calling it twice is harmless."]);
    const bold = states("### Tasks\n\n**Pin flag `isPinned`**\n\n- Calling `tasks.task.unpin`, when the caller has access, sets the flag to `N`.");
    expect(bold?.transitions.map((t) => [t.subject, t.trigger])).toEqual([["Pin flag `isPinned`", "`tasks.task.unpin`"]]);
    // A bold paragraph that no transition follows stays a note.
    expect(states("### Tasks\n\n**Pin flag**\n\nSome words.")?.notes.map((n) => n.text)).toEqual(["**Pin flag**", "Some words."]);
  });

  it("'By default …' is a default only of 'all … fields … are returned'; type words in backticks are no values; an open list of noted values is no enum", () => {
    const { m } = method("**ab.cd**. Scope `x`.\n\n| Parameter | Type | Description |\n|---|---|---|\n| `mode` | string | By default, when the task is closed, an error is returned. |\n| `order` | string | By default the newest items are returned first. |\n| `lang` | string | `en` (English), `de` (German), and any other language code |");
    expect(m.params.map((p) => [p.name, p.default ?? null, p.type.kind === "primitive" ? (p.type.enum ?? null) : p.type.kind])).toEqual([["mode", null, null], ["order", null, null], ["lang", null, null]]);
    const model = modelOf(spec("## Resources\n\n### Thing\n\n| Field | Type |\n|---|---|\n| `a` | `string` or `integer` |\n| `b` | `int` / `string` |"));
    const t = resourceOf(model, "Thing").type;
    expect(t.kind === "object" ? t.members.map((f) => (f.type.kind === "primitive" ? (f.type.enum ?? f.type.type) : f.type.kind)) : null).not.toContainEqual(["string", "integer"]);
  });

  it("'Request object:' and a table before any parameter are the parameters; 'Filter object:' and a table fill `filter`", () => {
    expect(method("**ab.cd**. Scope `x`.\n\nRequest object:\n\n| Parameter | Type |\n|---|---|\n| `id`* | integer |").m.params.map((p) => p.name)).toEqual(["id"]);
    const filter = method("**ab.cd**. Scope `x`. `filter` object, the conditions.\n\nFilter object:\n\n| Member | Type |\n|---|---|\n| `ID` | integer |");
    expect(filter.m.params.map((p) => [p.name, p.type.kind === "object" ? p.type.members.map((x) => x.name) : p.type.kind])).toEqual([["filter", ["ID"]]]);
    expect(filter.r.model?.resources.some((r) => /Filter$/.test(r.name) && r.title === "Filter object")).toBe(false);
  });

  it("under Error Handling, a code or a status before words opens no error; an 'other errors' row that states its status keeps it", () => {
    const { m } = method("#### Get ab.cd\n\n> Scope: `x`\n\n##### Error Handling\n\nCode `ERROR_CORE` is the platform's generic code; check the message text.\n\nHTTP 200, `result` is `false` when nothing changed.\n\n| HTTP | Code | Msg / cause |\n|---|---|---|\n| 403 | `ACCESS_DENIED` | no rights |\n| | | Other errors are returned with HTTP 500 |");
    expect(m.errors.map((e) => [e.code, e.statuses])).toEqual([["ACCESS_DENIED", [403]], [null, []]]);
  });

  it("a list of `result.X` members with no conditions is no union; 'sent in Base64 or as a URL' types nothing; 'bool (`Y` or `N`, …)' is no object of booleans", () => {
    const { m } = method("**ab.cd**. Scope `x`.\n\nResult:\n- `result.ID` (integer) — the id\n- `result.URL` (string) — the link\n\n| **Name**<br>`type` | **Description** |\n|---|---|\n| **encoding** | Whether the file is sent in Base64 or as a URL |");
    expect(m.result?.type.kind).not.toBe("union");
    expect(m.params.map((p) => [p.name, p.type.kind])).toEqual([["encoding", "unknown"]]);
    const model = modelOf(spec("## Resources\n\n### Flags\n\n| Field | Type |\n|---|---|\n| `F` | bool (`Y` or `N`, default `Y`) |"));
    const t = resourceOf(model, "Flags").type;
    expect(t.kind === "object" ? t.members[0]?.type.kind : null).not.toBe("object");
  });

  it("'`X`:' holds for the table right after it: a list between ends it", () => {
    const model = modelOf(spec("## Resources\n\n### Match\n\n| Field | Type |\n|---|---|\n| `ASSIGNED_BY` | object |\n\n`ASSIGNED_BY`:\n\n- some words\n\n| Field | Type |\n|---|---|\n| `STATUS` | string |"));
    expect(members(resourceOf(model, "Match"))).toEqual(["ASSIGNED_BY: object", "STATUS: string"]);
  });

  it("who may call in a developer's words: 'admin or owner of the group / project'", () => {
    expect(method("**ab.cd**. Scope `x` · admin or owner of the group / project. Changes a group.").m.access?.who).toBe("administrator or owner of the group or project");
  });

  it("a role alone after the scope is who may call ('Author of the message.'); a sentence that goes on is the description", () => {
    const who = (w: string) => method(`**ab.cd**. Scope \`x\`. ${w} Changes a message. \`ID\`* integer.`).m.access?.who ?? null;
    expect(who("Author of the message.")).toBe("author of the message");
    expect(who("The owner of the group or a moderator.")).toBe("owner of the group or moderator");
    expect(who("Author of the message changes it.")).toBeNull();
    expect(who("Members of the chat may call it.")).toBeNull();
  });

  it("the second review: 'No parameters, response Not shown.' keeps its gap; a role is who may call only right after the scope; 'includes' beside a returned-by result; a transition whose trigger closes it", () => {
    const gap = method("**ab.cd**. Scope `x`. No parameters, response Not shown.");
    expect(gap.m.result?.type).toEqual({ kind: "unknown", note: "not shown" });
    expect(method("**ab.cd**. Scope `x`. Returns the user who owns a file. Owner of the file.").m.access).toBeNull();
    expect(method("**ab.cd**. Scope `x`. Members of the group.").m.access).toBeNull();
    expect(method("#### `ab.cd`\n\n> Scope: `x`\n\nReturns a file.\n\nOwner of the file.").m.access).toBeNull();
    const includes = buildFromText(spec("## Resources\n\n### User\n\nReturned by `ab.cd`.\n\n| Field | Type |\n|---|---|\n| ID | integer |", "**ab.cd**. Scope `x`. `p`* integer. Response `result`: user object.\n\nincludes `archiveLink` (a link)."), "spec.md");
    expect(includes.model?.methods.find((x) => x.name === "ab.cd")?.result?.type).toMatchObject({ kind: "object", extends: "User", open: true, members: [{ name: "archiveLink" }] });
    const rows = buildFromText("# API\n\n## States and transitions\n\n### Tasks\n\n- The task moves to status 5 when `tasks.task.complete` is called.\n\n## Endpoints\n\n### Area\n\n**a.b**. Scope `x`.\n", "spec.md").model?.states.transitions;
    expect(rows?.map((t) => [t.subject, t.trigger, t.next])).toEqual([["Tasks", "`tasks.task.complete`", "The task moves to status 5"]]);
  });
});

