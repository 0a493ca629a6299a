import { describe, expect, it } from "vitest";
import { buildFromText } from "../../generator/generate.js";
import { SPEC_PATH, SPEC_TEXT, method } from "../helpers.js";

/** The model of the real spec: what it must hold, and that every line of the spec reached it. */
const { model, diagnostics } = buildFromText(SPEC_TEXT, SPEC_PATH);
if (!model) throw new Error("the real spec must read without errors");

describe("the real spec", () => {
  it("reads with exactly the expected warnings", () => {
    // telephony.externalCall.finish stars `USER_ID` and puts it in an "at least one of": the spec says two things,
    // and the warning names both places (D8). event.unbind has no scope sentence in the spec; that is the one
    // thing the dialect expects and misses.
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}`)).toEqual(["209:139 warning ambiguous-reading", "324:3 warning missing-scope"]);
    expect(diagnostics[0]?.related).toMatchObject({ line: 209, message: "`USER_ID` is starred here" });
  });

  it("covers every line: each non-blank line is the source of a model node, except headings and table headers", () => {
    const lines = new Set<number>();
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === "object") {
        const o = x as Record<string, unknown>;
        if (typeof o.line === "number" && typeof o.column === "number") {
          lines.add(o.line);
          expect(o.line, "a node without a position").toBeGreaterThan(0);
        }
        Object.values(o).forEach(walk);
      }
    };
    walk(model);
    const text = SPEC_TEXT.split("\n");
    const uncovered = text
      .map((l, i) => ({ l: l.trim(), n: i + 1 }))
      .filter(({ l, n }) => l && !l.startsWith("#") && !lines.has(n))
      .filter(({ l, n }) => !(l.startsWith("|") && /^\|[-| :]+\|$/.test(text[n]?.trim() ?? ""))) // header row
      .filter(({ l }) => !/^\|[-| :]+\|$/.test(l));
    expect(uncovered).toEqual([]);
  });

  it("holds both versions of tasks.task.get with their own parameters and results", () => {
    const legacy = method(model, "tasks.task.get", "legacy");
    const v3 = method(model, "tasks.task.get", "v3");
    expect(legacy.params.map((p) => p.name)).toEqual(["taskId", "select"]);
    expect(legacy.result).toMatchObject({ key: "task", type: { kind: "ref", resource: "Task" } });
    expect(v3.params.map((p) => p.name)).toEqual(["taskId"]);
    expect(v3.result).toMatchObject({ key: "item", type: { kind: "object", extends: "Task", members: [{ name: "archiveLink" }] } });
  });

  it("marks scopes, access, application context, deprecation, idempotency and GET", () => {
    expect(method(model, "user.current").scopes).toEqual(["user", "user_brief", "user_basic"]);
    expect(method(model, "event.bind").scopes).toEqual(["base"]);
    expect(method(model, "event.unbind").scopes).toBeNull();
    expect(method(model, "placement.bind").access?.who).toBe("administrator");
    expect(model.methods.filter((m) => m.applicationContextOnly).map((m) => m.name).sort()).toEqual(
      [
        "event.bind",
        "event.offline.clear",
        "event.unbind",
        "messageservice.sender.update",
        "placement.bind",
        "placement.get",
        "sign.b2e.personal.tail",
        "telephony.externalCall.finish",
        "telephony.externalLine.add",
      ].sort(),
    );
    expect(method(model, "task.comment.add").deprecated?.replacement).toBe("tasks.task.chat.message.send");
    expect(method(model, "telephony.externalCall.finish").params.find((p) => p.name === "RECORD_URL")?.deprecated).toBeTruthy();
    expect(model.methods.filter((m) => m.idempotencyKey).map((m) => `${m.version}:${m.name}`)).toEqual(["v3:tasks.task.add"]);
    // 3.0: the spec's rule for methods without parameters; legacy: every method, by the option legacyGet (D32).
    expect(model.methods.filter((m) => m.version === "v3" && m.httpMethods.includes("GET")).map((m) => m.name)).toEqual(["rest.documentation.openapi", "rest.scope.list"]);
    expect(model.methods.filter((m) => m.version === "legacy" && !m.wildcard && !m.httpMethods.includes("GET"))).toEqual([]);
    expect(model.knownGaps.find((g) => g.subject.startsWith("Whether legacy methods take GET"))).toMatchObject({ kind: "not-stated", appliesTo: [] });
  });

  it("holds the constraints between parameters", () => {
    expect(method(model, "vote.AttachedVote.recall").constraints).toMatchObject([
      { kind: "call-forms", forms: [["attachId"], ["moduleId", "entityType", "entityId"], ["signedAttachId"]] },
    ]);
    expect(method(model, "task.comment.add").constraints).toMatchObject([{ kind: "keep-order", params: ["TASKID", "COMMENTTEXT"] }]);
    expect(method(model, "telephony.externalCall.attachRecord").constraints).toMatchObject([{ kind: "at-least-one", params: ["RECORD_URL", "FILENAME"] }]);
    expect(method(model, "messageservice.sender.update").constraints).toMatchObject([{ kind: "at-least-one", params: ["HANDLER", "NAME", "DESCRIPTION"] }]);
  });

  it("reads the errors of getaccess with numeric codes and exact texts", () => {
    expect(method(model, "tasks.task.getaccess").errors.map((e) => [e.status, e.code, e.text])).toEqual([
      [400, "0", "wrong task id"],
      [400, "100", "Invalid value {} to match with parameter {users}. Should be value of type array."],
      [400, "100", null],
    ]);
  });

  it("marks methods the spec only names as not described, including families", () => {
    const named = model.methods.filter((m) => !m.described).map((m) => m.name);
    for (const n of ["event.get", "events", "event.offline.get", "disk.*", "disk.file.get", "crm.item.get", "im.v2.File.download", "sale.paysystem.handler.*"]) {
      expect(named).toContain(n);
    }
    expect(model.methods.find((m) => m.name === "humanresources.*")).toMatchObject({ version: "v3", wildcard: true, described: false });
    expect(model.methods.find((m) => m.name === "department.*")).toMatchObject({ version: "legacy" });
  });

  it("holds every not-shown sentence as a known gap with its line", () => {
    const notShownLines = SPEC_TEXT.split("\n")
      .map((l, i) => ({ l, n: i + 1 }))
      .filter(({ l }) => /not shown/.test(l))
      .map(({ n }) => n);
    const gapLines = new Set(model.knownGaps.filter((g) => g.kind === "not-shown").map((g) => g.source.line));
    expect(notShownLines.filter((n) => !gapLines.has(n))).toEqual([]);
  });

  it("counts", () => {
    const described = model.methods.filter((m) => m.described);
    expect({
      described: described.length,
      legacy: described.filter((m) => m.version === "legacy").length,
      v3: described.filter((m) => m.version === "v3").length,
      params: described.reduce((n, m) => n + m.params.length, 0),
      errors: described.reduce((n, m) => n + m.errors.length, 0),
      catalogue: model.errors.catalogue.length,
      resources: model.resources.length,
    }).toEqual({ described: 31, legacy: 26, v3: 5, params: 90, errors: 58, catalogue: 30, resources: 24 });
  });
});
