import { describe, expect, it } from "vitest";
import { unsafeNumbers } from "../../generator/check/rules/unsafe-numbers.js";
import { buildFromText } from "../../generator/generate.js";
import type { Field, Model, TypeRef } from "../../generator/model/types.js";
import { SPEC_TEXT } from "../helpers.js";

/**
 * A number past what JSON and JavaScript carry exactly is read as JavaScript makes it, and the reading says so at its
 * field (check/rules/unsafe-numbers.ts), where it was lost silently: an enum value of 20 digits, and one of 320 digits
 * (Infinity, which JSON writes as null).
 */
const ORIGINAL = "`status` integer, `1` enable (default), `0` disable.";

describe("numbers past 2^53", () => {
  it("the shipped spec and its safe values give no warning", () => {
    expect(SPEC_TEXT).toContain(ORIGINAL);
    expect(buildFromText(SPEC_TEXT, "spec.md").diagnostics.filter((d) => d.code === "unsafe-number")).toEqual([]);
  });

  it("an enum value and a default of too many digits are said at their field, with the number they are read as", () => {
    const big = "12345678901234567890";
    const huge = "9".repeat(320);
    const text = SPEC_TEXT.replace(ORIGINAL, `\`status\` integer, \`${big}\` enable (default), \`${huge}\` disable.`);
    const built = buildFromText(text, "spec.md");
    const warned = built.diagnostics.filter((d) => d.code === "unsafe-number");
    const line = text.split("\n").findIndex((l) => l.includes(big)) + 1;
    // The default is the first value: one number at one place is said once.
    expect(warned.map((d) => [d.line, d.message])).toEqual([
      [line, expect.stringContaining("past ±(2^53 - 1), where not every integer is exact; it is read as 12345678901234567000")],
      [line, expect.stringContaining("above the largest number, about 1.8e308; JSON writes it as null; it is read as Infinity")],
    ]);
    expect(warned[0]?.message).toContain("'status'");
  });
});

describe("every place a number of the model sits", () => {
  it("is checked: members, results, items, union options, resources, the envelope, event payloads, limits, States rows", () => {
    const built = buildFromText(SPEC_TEXT, "spec.md").model;
    if (!built) throw new Error("no model");
    const model = structuredClone(built) as Model;
    const big = 2 ** 60;
    const at = model.methods[0]?.source ?? { file: "spec.md", line: 1, column: 1 };
    const field = (name: string, type: TypeRef, line: number): Field => ({ name, type, required: false, nullable: false, description: "", source: { ...at, line } });
    const int = (extra: object): TypeRef => ({ kind: "primitive", type: "integer", ...extra });
    const m = model.methods.find((x) => x.result) ?? model.methods[0];
    if (!m) throw new Error("no method");
    m.result = { key: null, type: { kind: "object", members: [field("nested", { kind: "array", items: { kind: "union", options: [{ kind: "null" }, int({ minimum: -big })] } }, 1001)] }, source: { ...at, line: 1000 } } as typeof m.result;
    model.resources.push({ ...(model.resources[0] as Model["resources"][number]), name: "Extra", type: { kind: "object", members: [field("level", int({ maximum: big }), 1002)] } });
    model.envelope?.time.push(field("ticks", int({ enum: [big] }), 1003));
    // One include's field in two events' payloads: one place, one warning.
    const shared = field("expires_in", int({ enum: [Number.POSITIVE_INFINITY] }), 1004);
    model.eventPayloads = ["ONA", "ONB"].map((code) => ({ name: code, code, description: "", scopes: null, fields: [shared], source: at }));
    model.limits.table.push({ name: "Key length", value: "1 to a lot", appliesTo: "", min: 1, max: big, source: { ...at, line: 1005 } });
    const row = model.states.transitions[0];
    if (row) row.effect = { kind: "set", method: "x", member: null, field: "f", value: big };
    const said = unsafeNumbers(model).map((d) => [d.line, /'([^']+)'/.exec(d.message)?.[1]]);
    // In the rule's order: resources, methods, the envelope, events, limits, States rows.
    expect(said).toEqual([
      [1002, "level"],
      [1001, "nested"],
      [1003, "ticks"],
      [1004, "expires_in"],
      [1005, "Key length"],
      ...(row ? [[row.source.line, row.subject]] : []),
    ]);
    expect(row).toBeDefined();
  });

  it("is checked in the 3.0 error body the reference's include gives (envelope.v3ErrorBody)", () => {
    const built = buildFromText(SPEC_TEXT, "spec.md").model;
    if (!built?.envelope) throw new Error("no envelope");
    const model = structuredClone(built) as Model;
    const at = { file: "error-info-v3.md", line: 6, column: 4 };
    const code: Field = { name: "code", type: { kind: "primitive", type: "integer", enum: [2 ** 60] }, required: false, nullable: false, description: "", source: at };
    if (model.envelope) model.envelope.v3ErrorBody = [{ name: "error", type: { kind: "object", members: [code] }, required: false, nullable: false, description: "", source: at }];
    expect(unsafeNumbers(model).map((d) => [d.file, d.line, /'([^']+)'/.exec(d.message)?.[1]])).toEqual([["error-info-v3.md", 6, "code"]]);
  });
});
