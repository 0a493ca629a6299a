import { describe, expect, it } from "vitest";
import type { MethodError } from "../../generator/model/types.js";
import { build, endpointSpec, method, modelOf, withoutSources } from "../helpers.js";

/** Parameters: bullets, inline sentences, tables; every form of the dialect with the fields it must give. */
const paramCases: Array<{ name: string; md: string; expect: Array<Record<string, unknown> & { name: string }> }> = [
  {
    name: "bullet with required marker and description",
    md: "**a.b**. Scope `x`. Any user.\n- `taskId`* integer, the task id.",
    expect: [{ name: "taskId", required: true, type: { kind: "primitive", type: "integer" }, description: "the task id" }],
  },
  {
    name: "two parameters in one bullet, default in words",
    md: "**a.b**. Scope `x`.\n- `taskId`* integer. `users` array of user ids; default: the current user.",
    expect: [
      { name: "taskId", required: true, type: { kind: "primitive", type: "integer" } },
      {
        name: "users",
        required: false,
        type: { kind: "array", items: { kind: "unknown", note: "user ids" } },
        default: { text: "the current user" },
      },
    ],
  },
  {
    name: "inline in the method paragraph",
    md: "**a.b**. Scope `x`. Any user. Turns it off. `taskId`* integer. Response `result.task`.",
    expect: [{ name: "taskId", required: true, type: { kind: "primitive", type: "integer" } }],
  },
  {
    name: "union type and default in a parenthesis",
    md: "**a.b**. Scope `x`. `CALL_ID`* string; `USER_ID` integer or array of integers (default: the user given at call registration). Result `true`.",
    expect: [
      { name: "CALL_ID", required: true, type: { kind: "primitive", type: "string" } },
      {
        name: "USER_ID",
        type: { kind: "union", options: [{ kind: "primitive", type: "integer" }, { kind: "array", items: { kind: "primitive", type: "integer" } }] },
        default: { text: "the user given at call registration" },
      },
    ],
  },
  {
    name: "values listed as `a` or `b` with a literal default",
    md: "**a.b**. Scope `x`. `CRM_AUTO_CREATE` string `Y` or `N`, default `Y` (auto-creates CRM objects).",
    expect: [{ name: "CRM_AUTO_CREATE", type: { kind: "primitive", type: "string", enum: ["Y", "N"] }, default: { value: "Y", text: "Y" } }],
  },
  {
    name: "value list with meanings after the type",
    md: "**a.b**. Scope `x`. `id`* integer; `status` integer, `1` enable (default), `0` disable.",
    expect: [
      { name: "id", required: true },
      { name: "status", type: { kind: "primitive", type: "integer", enum: [1, 0] }, default: { value: 1, text: "1" } },
    ],
  },
  {
    name: "enum with (default) marker",
    md: "**a.b**. Scope `x`.\n- `event_type` string `online` (default) or `offline`.",
    expect: [{ name: "event_type", type: { kind: "primitive", type: "string", enum: ["online", "offline"] }, default: { value: "online", text: "online" } }],
  },
  {
    name: "names sharing one plural type, description only on its own name",
    md: "**a.b**. Scope `x`.\n- `NAME`, `DESCRIPTION`, `KEYWORDS` (comma separated) strings.",
    expect: [
      { name: "NAME", type: { kind: "primitive", type: "string" }, description: "" },
      { name: "DESCRIPTION", type: { kind: "primitive", type: "string" }, description: "" },
      { name: "KEYWORDS", type: { kind: "primitive", type: "string" }, description: "comma separated" },
    ],
  },
  {
    name: "names sharing a singular type word",
    md: "**a.b**. Scope `x`.\n- `PROJECT_DATE_START`, `PROJECT_DATE_FINISH` ISO 8601.",
    expect: [
      { name: "PROJECT_DATE_START", type: { kind: "primitive", type: "string", format: "date-time" } },
      { name: "PROJECT_DATE_FINISH", type: { kind: "primitive", type: "string", format: "date-time" } },
    ],
  },
  {
    name: "Optional: list with parenthesised meanings, obsolete parameter",
    md: "**a.b**. Scope `x`.\n- Optional: `DURATION` (seconds), `COST`, `RECORD_URL` (obsolete, use attachRecord), `ADD_TO_CHAT` (integer flag, adds a message).",
    expect: [
      { name: "DURATION", required: false, type: { kind: "unknown" }, description: "seconds" },
      { name: "COST", required: false, type: { kind: "unknown" } },
      { name: "RECORD_URL", required: false, deprecated: { text: "obsolete, use attachRecord" } },
      { name: "ADD_TO_CHAT", type: { kind: "primitive", type: "integer" }, description: "flag, adds a message" },
    ],
  },
  {
    name: "allowed values in a parenthesis after the type",
    md: "**a.b**. Scope `x`. `type` string (`min`, `hour`, `day`), `count` integer.",
    expect: [
      { name: "type", type: { kind: "primitive", type: "string", enum: ["min", "hour", "day"] } },
      { name: "count", type: { kind: "primitive", type: "integer" } },
    ],
  },
  {
    name: "object of language code to string",
    md: "**a.b**. Scope `x`. `NAME` string or object of language code to string.",
    expect: [
      {
        name: "NAME",
        type: {
          kind: "union",
          options: [
            { kind: "primitive", type: "string" },
            { kind: "object", members: [], additional: { kind: "primitive", type: "string" }, keyDescription: "language code" },
          ],
        },
      },
    ],
  },
  {
    name: "format words: string URL, Base64",
    md: "**a.b**. Scope `x`.\n- `HANDLER`* string URL. `IMAGE` Base64 avatar.",
    expect: [
      { name: "HANDLER", required: true, type: { kind: "primitive", type: "string", format: "uri" } },
      { name: "IMAGE", type: { kind: "primitive", type: "string", format: "byte" }, description: "avatar" },
    ],
  },
  {
    name: "file extensions",
    md: "**a.b**. Scope `x`.\n- `FILENAME` string: file name; extensions `wav`, `mp3`.",
    expect: [{ name: "FILENAME", fileExtensions: ["wav", "mp3"], type: { kind: "primitive", type: "string" } }],
  },
  {
    name: "object with a map described in its clauses",
    md: "**a.b**. Scope `x`.\n- `SETTINGS`* object: key is the setting name; value is an object with `TYPE` (source) and `VALUE` (code).",
    expect: [
      {
        name: "SETTINGS",
        required: true,
        type: {
          kind: "object",
          members: [],
          keyDescription: "setting name",
          additional: {
            kind: "object",
            members: [
              { name: "TYPE", type: { kind: "unknown" }, required: false, nullable: false, description: "source" },
              { name: "VALUE", type: { kind: "unknown" }, required: false, nullable: false, description: "code" },
            ],
          },
        },
      },
    ],
  },
  {
    name: "table of parameters (contract form)",
    md: "**a.b**. Scope `x`.\n\n| Parameter | Type | Required | Meaning |\n|---|---|---|---|\n| `id` | integer | yes | the id |\n| `mode` | string | | `fast`, `slow` |",
    expect: [
      { name: "id", required: true, type: { kind: "primitive", type: "integer" }, description: "the id" },
      { name: "mode", required: false, type: { kind: "primitive", type: "string", enum: ["fast", "slow"] } },
    ],
  },
  {
    name: "members table after `x`* object:",
    md: "**a.b**. Scope `x`. `settings`* object:\n\n| Member | Type | Meaning / allowed values |\n|---|---|---|\n| view | string | `day`, `week` |\n| flag | string | `Y`/`N` hide |",
    expect: [
      {
        name: "settings",
        required: true,
        type: {
          kind: "object",
          members: [
            { name: "view", type: { kind: "primitive", type: "string", enum: ["day", "week"] }, required: false, nullable: false, description: "" },
            { name: "flag", type: { kind: "primitive", type: "string", enum: ["Y", "N"] }, required: false, nullable: false, description: "hide" },
          ],
        },
      },
    ],
  },
];

describe("parameters", () => {
  it.each(paramCases)("$name", ({ md, expect: expected }) => {
    const m = method(modelOf(endpointSpec(md)), "a.b");
    const params = withoutSources(m.params);
    expect(params.map((p) => p.name)).toEqual(expected.map((e) => e.name));
    for (const [i, e] of expected.entries()) expect(params[i]).toMatchObject(e);
  });
});

const errorCases: Array<{ name: string; md: string; expect: Array<Partial<MethodError>> }> = [
  {
    name: "shared status, empty code and a code with a cause",
    md: "- Errors, HTTP 400: empty code with `Required parameters are not set`; code `ERROR_CORE` for file name problems.",
    expect: [
      { status: 400, code: "", text: "Required parameters are not set", cause: null },
      { status: 400, code: "ERROR_CORE", text: null, cause: "for file name problems" },
    ],
  },
  {
    name: "shared status and code, texts as items",
    md: "- Errors, HTTP 400, code `ERROR_CORE`: `PHONE_NUMBER is empty`; `CRM is not installed.`",
    expect: [
      { status: 400, code: "ERROR_CORE", text: "PHONE_NUMBER is empty" },
      { status: 400, code: "ERROR_CORE", text: "CRM is not installed." },
    ],
  },
  {
    name: "numeric codes 0 and 100 with the status given once at the start",
    md: "- Errors: HTTP 400, code `0`, text `wrong task id` (taskId of wrong type); code `100` with a text about constructor parameter class type (taskId missing).",
    expect: [
      { status: 400, code: "0", text: "wrong task id", cause: "taskId of wrong type" },
      { status: 400, code: "100", text: null, cause: "a text about constructor parameter class type (taskId missing)" },
    ],
  },
  {
    name: "HTTP 400 or 403: the catalogue picks the status of a known code",
    md: "- Errors, HTTP 400 or 403: `WRONG_AUTH_TYPE` (`Current authorization type is denied for this method`, not application context); `INVALID_ARGUMENT` with `CALL_ID must be a string`.",
    expect: [
      { status: 403, statuses: [400, 403], statusFrom: "catalogue", code: "WRONG_AUTH_TYPE", text: "Current authorization type is denied for this method", cause: "not application context" },
      { status: null, statuses: [400, 403], code: "INVALID_ARGUMENT", text: "CALL_ID must be a string" },
    ],
  },
  {
    name: "texts: list in a parenthesis, statuses per item",
    md: "- Errors: 400 `ERROR_ARGUMENT` (texts: `A is empty`, `B is empty`); 403 `WRONG_LICENSE` (`auth_connector` on an unsupported plan).",
    expect: [
      { status: 400, code: "ERROR_ARGUMENT", text: "A is empty" },
      { status: 400, code: "ERROR_ARGUMENT", text: "B is empty" },
      { status: 403, code: "WRONG_LICENSE", text: null, cause: "`auth_connector` on an unsupported plan" },
    ],
  },
  {
    name: "statuses given once for a comma list",
    md: "- Errors: `ERROR_SENDER_CODE_REQUIRED` (`CODE is required!`), `ERROR_SENDER_NOT_FOUND` (`Sender not found!`). Statuses 400 and 403.",
    expect: [
      { status: null, statuses: [400, 403], code: "ERROR_SENDER_CODE_REQUIRED", text: "CODE is required!" },
      { status: null, statuses: [400, 403], code: "ERROR_SENDER_NOT_FOUND", text: "Sender not found!" },
    ],
  },
  {
    name: "status class 4xx",
    md: "- Errors: HTTP 4xx, code `ATTACH_NOT_FOUND`, text `Attach not found`; a constructor-type error when required parameters are missing.",
    expect: [
      { status: null, statusClass: "4xx", code: "ATTACH_NOT_FOUND", text: "Attach not found" },
      { status: null, statusClass: "4xx", code: null, text: null, cause: "a constructor-type error when required parameters are missing" },
    ],
  },
  {
    name: "a text with no code, and a status inside prose",
    md: "- Errors: `Argument 'X' is null or empty`; `ERROR_ARGUMENT` (HTTP 400; wrong type); some errors come with HTTP 200, among them a repeat.",
    expect: [
      { status: null, code: null, text: "Argument 'X' is null or empty" },
      { status: 400, code: "ERROR_ARGUMENT", text: null, cause: "wrong type" },
      { status: 200, code: null, text: null },
    ],
  },
  {
    name: "nested code and text in a status's parenthesis",
    md: "- Errors: HTTP 403 (no right to read settings); HTTP 400 (the pay system is not found: code `ERROR_CHECK_FAILURE`, text `Pay system not found`).",
    expect: [
      { status: 403, code: null, cause: "no right to read settings" },
      { status: 400, code: "ERROR_CHECK_FAILURE", text: "Pay system not found", cause: "the pay system is not found" },
    ],
  },
  {
    name: "error table (contract form)",
    md: "\n| Status | Code | Text |\n|---|---|---|\n| 400 | `ERROR_X` | `Bad x` |\n| 404 | NOT_FOUND | |",
    expect: [
      { status: 400, code: "ERROR_X", text: "Bad x" },
      { status: 404, code: "NOT_FOUND", text: null },
    ],
  },
];

const catalogue = "\n\n## Errors\n\n| Status | Code | Text | Cause |\n|---|---|---|---|\n| 401 | ACCESS_DENIED | Denied | x |\n\n## Authentication\n\n| Status | Code | When |\n|---|---|---|\n| 403 | WRONG_AUTH_TYPE | webhook |\n";

describe("errors", () => {
  it.each(errorCases)("$name", ({ md, expect: expected }) => {
    const m = method(modelOf(endpointSpec(`**a.b**. Scope \`x\`.\n${md}`) + catalogue), "a.b");
    const errors = withoutSources(m.errors);
    expect(errors).toHaveLength(expected.length);
    for (const [i, e] of expected.entries()) expect(errors[i]).toMatchObject(e);
  });
});

describe("method header", () => {
  it.each([
    {
      name: "scope, access, application context",
      md: "**m.x**. Scope `placement` (depends on the point). Administrator. Application context only (else HTTP 403 `WRONG_AUTH_TYPE`).",
      expect: { scopes: ["placement"], scopeNote: "depends on the point", access: { who: "administrator" }, applicationContextOnly: true },
    },
    { name: "several scopes", md: "**m.x**. Scopes `user`, `user_brief`. Any user. No parameters.", expect: { scopes: ["user", "user_brief"], access: { who: "any" }, params: [] } },
    { name: "Scope: base", md: "**m.x**. Scope: base. Any user.", expect: { scopes: ["base"] } },
    {
      name: "deprecated with replacement",
      md: "**m.x** (deprecated; use `m.y`). Scope `task`.",
      expect: { deprecated: { replacement: "m.y", text: "deprecated; use `m.y`" } },
    },
  ])("$name", ({ md, expect: expected }) => {
    const m = method(modelOf(endpointSpec(md)), "m.x");
    expect(withoutSources(m)).toMatchObject(expected);
  });

  it("3.0 dialect: version marker, synonym, GET twin, Idempotency-Key, body object", () => {
    const md =
      "**rest.doc** (synonym `doc`): no parameters, GET or POST. Returns a document as JSON (members `openapi`, `components.schemas`).\n\n" +
      "**t.add** (3.0): body `fields` object with `title`, `creatorId`; header `Idempotency-Key` honored. Full field list and response: not shown.\n\n" +
      "**t.get** (3.0): body `taskId` integer; `result.item` holds the task; includes `archiveLink` (link, may be relative).";
    const text = `# API\n\n## Resources and their fields\n\n### Task\n\n| Field | Type |\n|---|---|\n| id | integer |\n\n## Endpoints\n\n### Addressing and request rules\n\n4. In 3.0 methods without parameters accept GET or POST.\n\n### 3.0-only methods\n\n${md}\n`;
    const model = modelOf(text);
    const doc = method(model, "rest.doc", "v3");
    expect(doc.aliases).toEqual(["doc"]);
    expect(doc.httpMethods).toEqual(["GET", "POST"]);
    expect(withoutSources(doc.result?.type)).toMatchObject({
      kind: "object",
      members: [{ name: "openapi" }, { name: "components", type: { kind: "object", members: [{ name: "schemas" }] } }],
    });
    const add = method(model, "t.add", "v3");
    expect(add.idempotencyKey).toBe(true);
    expect(withoutSources(add.params[0])).toMatchObject({ name: "fields", type: { kind: "object", open: true, members: [{ name: "title" }, { name: "creatorId" }] } });
    expect(add.result?.type).toMatchObject({ kind: "unknown" });
    expect(model.knownGaps.some((g) => g.subject === "Full field list and response" && g.appliesTo.includes("method:v3:t.add"))).toBe(true);
    const get = method(model, "t.get", "v3");
    expect(get.result?.key).toBe("item");
    expect(withoutSources(get.result?.type)).toMatchObject({ kind: "object", extends: "Task", members: [{ name: "archiveLink" }] });
  });

  it("call forms and keep-order constraints", () => {
    const md =
      "**v.recall**. Scope `vote`. Any user. Three call forms:\n\n1. `attachId`* (poll id).\n2. `moduleId`*, `entityId`* (the element).\n\n" +
      "**c.add**. Scope `task`. Parameters `TASKID` (task id) and `COMMENTTEXT` (text); order of parameters in the request must be kept or the call fails.";
    const model = modelOf(endpointSpec(md));
    expect(withoutSources(method(model, "v.recall").constraints)).toEqual([
      { kind: "call-forms", forms: [["attachId"], ["moduleId", "entityId"]], text: "Three call forms:" },
    ]);
    expect(method(model, "v.recall").params.every((p) => !p.required)).toBe(true);
    const c = method(model, "c.add");
    expect(c.params.map((p) => p.name)).toEqual(["TASKID", "COMMENTTEXT"]);
    expect(c.constraints[0]).toMatchObject({ kind: "keep-order", params: ["TASKID", "COMMENTTEXT"] });
  });

  it("at least one of, in a bullet and as a sentence", () => {
    const md = "**a.b**. Scope `x`. `CODE`* string; `HANDLER` string. `CODE` plus at least one of `HANDLER`, `NAME` is required.";
    expect(withoutSources(method(modelOf(endpointSpec(md)), "a.b").constraints)).toMatchObject([{ kind: "at-least-one", params: ["HANDLER", "NAME"] }]);
  });
});

describe("results", () => {
  const resources =
    "# API\n\n## Resources and their fields\n\n### Allowed actions (result of `a.access`)\n\n`allowedActions`: object keyed by user id; value is an object of booleans with keys A, B.\n\n### Other resources\n\n- External line: result of add is an object with `ID` (integer).\n- Placement handler (`p.get` item): id (integer).\n\n## Endpoints\n\n### Area\n\n";
  it.each([
    { md: "**a.access**. Scope `x`.\n- Response `result.allowedActions` (see Allowed actions). When no access, `allowedActions` is an empty array.", name: "a.access", key: "allowedActions", type: { kind: "ref", resource: "AllowedActions" }, emptyArray: true },
    { md: "**tel.externalLine.add**. Scope `x`. Result `{ID}`.", name: "tel.externalLine.add", key: null, type: { kind: "ref", resource: "ExternalLine" } },
    { md: "**p.get**. Scope `x`. Result: array of Placement handler items; empty array when none.", name: "p.get", key: null, type: { kind: "array", items: { kind: "ref", resource: "PlacementHandler" } } },
    { md: "**d.url**. Scope `x`. Result `{publicUrl}` (string, or null when disabled).", name: "d.url", key: null, type: { kind: "object", members: [{ name: "publicUrl", nullable: true, type: { kind: "primitive", type: "string" } }] } },
    { md: "**e.clear**. Scope `x`. Result: always `true`.", name: "e.clear", key: null, type: { kind: "primitive", type: "boolean", enum: [true] } },
    { md: "**c.add**. Scope `x`. Result: id of the new comment (integer).", name: "c.add", key: null, type: { kind: "primitive", type: "integer" } },
  ])("$name", ({ md, name, key, type, emptyArray }) => {
    const m = method(modelOf(resources + md), name);
    expect(m.result?.key).toBe(key);
    expect(withoutSources(m.result?.type)).toMatchObject(type);
    if (emptyArray) expect(m.result?.mayBeEmptyArray).toBe(true);
  });
});

describe("section-level method statements", () => {
  it("named methods, families and the a/b/c shorthand are present and not described", () => {
    const md =
      "**a.b**. Scope `x`.\n\nMethods that are named but whose parameters are not described here: `event.get`, `disk.*` methods, `sale.paysystem.add/update/handler.*`. Their parameters and responses: not shown.";
    const model = modelOf(endpointSpec(md));
    const named = model.methods.filter((m) => !m.described).map((m) => [m.name, m.wildcard]);
    expect(named).toEqual([
      ["event.get", false],
      ["disk.*", true],
      ["sale.paysystem.add", false],
      ["sale.paysystem.update", false],
      ["sale.paysystem.handler.*", true],
    ]);
  });

  it("Errors of `x`: not shown becomes a known gap of that method", () => {
    const model = modelOf(endpointSpec("**a.b**. Scope `x`.\n\nErrors of `a.b`: not shown."));
    expect(model.knownGaps.find((g) => g.appliesTo.includes("method:legacy:a.b") && g.kind === "not-shown")).toMatchObject({ subject: "Errors of a.b" });
  });

  it("a method name written in text elsewhere is modelled as named", () => {
    const r = build("# API\n\n## Versioning\n\n1. Use `x.y.z` instead.\n\n## Endpoints\n\n### A\n\n**a.b**. Scope `s`.\n");
    expect(r.model?.methods.find((m) => m.name === "x.y.z")).toMatchObject({ described: false, version: "legacy" });
  });
});
