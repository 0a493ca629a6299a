import { readFileSync } from "node:fs";
import { it } from "vitest";
import { buildFromText } from "../../generator/generate.js";
import { buildModel } from "../../generator/model/build.js";
import { specFile } from "../../generator/parse/markdown.js";
import { readSpec } from "../../generator/read/index.js";
import { factAtoms } from "../grammar/atoms.js";
import { SPEC_TEXT } from "../helpers.js";
it("lost", () => {
  const base = factAtoms(buildFromText(SPEC_TEXT, "spec.md").model as never);
  for (const name of ["careful-writer", "hurried-developer", "platform-docs-style"]) {
    const text = readFileSync(`test/fixtures/other-hands/${name}/collaboration-platform-api.md`, "utf8");
    const model = buildModel("spec.md", readSpec(specFile("spec.md", text)).fragments).model;
    const got = new Set(factAtoms(model));
    const lost = base.filter((a) => !got.has(a));
    const kinds: Record<string, number> = {};
    for (const l of lost) { const k = l.split(/[ :|]/)[0] ?? ""; kinds[k] = (kinds[k] ?? 0) + 1; }
    console.log(name, lost.length, JSON.stringify(kinds));
    console.log(lost.slice(0, 200).join("\n"));
  }
});
