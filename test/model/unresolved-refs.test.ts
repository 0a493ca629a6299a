import { describe, expect, it } from "vitest";
import { checkModel } from "../../generator/check/rules.js";
import type { Model, TypeRef } from "../../generator/model/types.js";
import { specFile } from "../../generator/parse/markdown.js";
import { readSpec } from "../../generator/read/index.js";
import { modelOf } from "../helpers.js";

/**
 * Issue 27: a reference a front end cannot resolve alone is a typed variant of the fragments
 * (`{ kind: "unresolved", by, text }`), not a string prefix on a resource name; the model stage resolves it, and
 * `check/` rejects a model that still has one.
 */

const SPEC = [
  "# API",
  "",
  "## Resources",
  "",
  "### Task",
  "",
  "Returned by `a.get`.",
  "",
  "| Field | Type |",
  "|---|---|",
  "| ID | integer |",
  "",
  "### Calendar settings",
  "",
  "See `a.set` in Endpoints.",
  "",
  "### Other resources",
  "",
  "- Message provider: CODE, HANDLER; see Endpoints.",
  "",
  "## Endpoints",
  "",
  "### Area",
  "",
  "**a.get**. Scope `x`. Response `result.task` (see Task).",
  "",
  "**a.one**. Scope `x`. `result.item` holds the task; includes `archiveLink` (a link).",
  "",
  "**a.set**. Scope `x`. `settings`* object: `view` string.",
  "",
  "**a.provider**. Scope `x`. `CODE`* string; `HANDLER` string URL.",
  "",
].join("\n");

function kinds(t: TypeRef | undefined, out: string[] = []): string[] {
  if (!t) return out;
  out.push(t.kind === "unresolved" ? `unresolved:${t.by}:${t.text}` : t.kind);
  if (t.kind === "object") for (const m of t.members) kinds(m.type, out);
  if (t.kind === "array") kinds(t.items, out);
  return out;
}

describe("unresolved references are typed (issue 27)", () => {
  it("the readers give typed references: by title, with the members beside it, and a resource that points at a method", () => {
    const f = readSpec(specFile("spec.md", SPEC)).fragments;
    const by = (name: string) => f.methods.find((m) => m.name === name)?.result?.type;
    expect(by("a.get")).toEqual({ kind: "unresolved", by: "title", text: "Task" });
    const one = by("a.one");
    expect(one?.kind === "unresolved" ? [one.by, one.text, (one.with ?? []).map((x) => x.name)] : one).toEqual(["title", "task", ["archiveLink"]]);
    expect(f.resources.find((r) => r.title === "Calendar settings")?.type).toEqual({ kind: "unresolved", by: "see", text: "a.set" });
    // Fields that are a method's parameters are marked on the resource, not by a magic name of its type.
    expect(f.resources.find((r) => r.title === "Message provider")?.fieldsAreParams).toBe(true);
    // No resource name carries a prefix any more.
    expect(JSON.stringify(f)).not.toMatch(/"(?:title|see|verb|params):|see-params/);
  });

  it("the model stage resolves every one: the titled resource, the object that extends it, the method's parameter", () => {
    const model = modelOf(SPEC);
    const m = (name: string) => model.methods.find((x) => x.name === name)?.result?.type;
    expect(m("a.get")).toEqual({ kind: "ref", resource: "Task" });
    expect(m("a.one")).toMatchObject({ kind: "object", extends: "Task", open: true, members: [{ name: "archiveLink" }] });
    expect(model.methods.find((x) => x.name === "a.set")?.params[0]?.type).toEqual({ kind: "ref", resource: "CalendarSettings" });
    for (const r of model.resources) expect(kinds(r.type).filter((k) => k.startsWith("unresolved"))).toEqual([]);
    // The provider's fields are typed from `a.provider`'s parameters, and the front end's marks are gone.
    const provider = model.resources.find((r) => r.title === "Message provider");
    expect(provider?.type.kind === "object" ? provider.type.members.map((x) => [x.name, x.type.kind === "primitive" ? (x.type.format ?? x.type.type) : x.type.kind]) : null).toEqual([["CODE", "string"], ["HANDLER", "uri"]]);
    expect(JSON.stringify(model)).not.toMatch(/fieldsAreParams|returnedByVerb/);
  });

  it("check/ rejects a model that still has one: a bug of the model stage, named with where it is", () => {
    const model = modelOf(SPEC);
    const broken: Model = structuredClone(model);
    const get = broken.methods.find((x) => x.name === "a.get");
    if (!get?.result) throw new Error("no result");
    get.result.type = { kind: "unresolved", by: "title", text: "Nowhere" };
    expect(() => checkModel(broken)).toThrow(/unresolved reference \(title: 'Nowhere'\) in a\.get result/);
  });
});
