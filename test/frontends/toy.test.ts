import { describe, expect, it } from "vitest";
import { buildFromSource, generateSource } from "../../generator/generate.js";
import { FRONT_ENDS } from "../../generator/frontends/index.js";
import { oneFile } from "../../generator/source/index.js";
import { GEN } from "../helpers.js";
import { TOY_FRONT_END } from "./toy/front-end.js";

/**
 * Issue 27: a second, minimal front end lives here, in the test tree, registered only in the table this test passes.
 * It generates packages with no change to the generator: a new dialect (the platform's reference next) is an
 * addition behind the front-end table, not a rewrite of the model or the emitters.
 */

const TOY = ["title Toy API", "method legacy toy.item.get scope=toy", "param id integer required", "param name string", "result object", "method v3 toy.item.add scope=toy", "param title string required"].join("\n");
const table = [TOY_FRONT_END, ...FRONT_ENDS];

describe("a toy dialect behind the front-end table", () => {
  it("is read into the model with its own file's positions", () => {
    const r = buildFromSource(oneFile("api.toy", TOY), {}, table);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const model = r.model;
    if (!model) throw new Error("no model");
    expect(model.title).toBe("Toy API");
    expect(model.methods.map((m) => `${m.version} ${m.name} ${m.params.map((p) => `${p.name}${p.required ? "*" : ""}`).join(",")}`)).toEqual([
      "legacy toy.item.get id*,name",
      "v3 toy.item.add title*",
    ]);
    expect(model.methods[0]?.params[0]?.source).toEqual({ file: "api.toy", line: 3, column: 1 });
  });

  it("generates the packages and the OpenAPI documents from it", async () => {
    const r = await generateSource(oneFile("api.toy", TOY), { ...GEN, specPath: "api.toy", frontEnds: table });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const file = (path: string) => r.files.find((f) => f.path === path)?.contents ?? "";
    const legacy = JSON.parse(file("openapi/openapi.legacy.json")) as { paths: Record<string, { post: { requestBody: { content: { "application/json": { schema: { required?: string[] } } } } } }> };
    expect(Object.keys(legacy.paths)).toContain("/toy.item.get");
    expect(legacy.paths["/toy.item.get"]?.post.requestBody.content["application/json"].schema.required).toEqual(["id"]);
    expect(file("types/index.d.ts")).toContain("ToyItemGetErrorCode");
    expect(r.files.filter((f) => f.path.startsWith("types/") && f.contents.includes('"toy.item.get"')).length).toBeGreaterThan(0);
    expect(r.files.filter((f) => f.path.startsWith("client/") && f.contents.includes("toy.item.get")).length).toBeGreaterThan(0);
    expect(file("server/methods.js")).toContain("toy.item.add");
  });

  it("the generator's own table does not know it: the file is read as the spec, and a caller's table reads it", () => {
    // Without the toy row the one file is read by the spec front end, which finds no method in it.
    const spec = buildFromSource(oneFile("api.toy", TOY));
    expect(spec.model).toBeNull();
    expect(spec.diagnostics.map((d) => d.code)).toContain("no-methods");
    // A source that no front end of the table reads is an error at the input, not an exception.
    const none = buildFromSource({ root: "docs", files: [] }, {}, [TOY_FRONT_END]);
    expect(none.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual(["docs:1 unknown-input"]);
  });
});
