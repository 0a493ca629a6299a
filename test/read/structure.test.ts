import { describe, expect, it } from "vitest";
import { buildFromText } from "../../generator/generate.js";
import { factAtoms } from "../grammar/atoms.js";
import { SPEC_TEXT } from "../helpers.js";

/**
 * Issue 26, part 1: sections, areas and methods are read by what they are, at whatever level the author put them.
 * Two rewrites of the shipped spec that change nothing but structure must give its facts and its diagnostics.
 */
const original = buildFromText(SPEC_TEXT, "spec.md");
const facts = factAtoms(original.model ?? (undefined as never)).sort();
const codes = (r: ReturnType<typeof buildFromText>) => r.diagnostics.map((d) => `${d.severity} ${d.code}`).sort();

describe("structure, not absolute levels", () => {
  it("every heading one level deeper reads the same (before: exit 2, no-methods, 'Unknown section Endpoints')", () => {
    const deeper = SPEC_TEXT.replace(/^(#{1,5}) /gm, "#$1 ");
    const r = buildFromText(deeper, "spec.md");
    expect(codes(r)).toEqual(codes(original));
    expect(factAtoms(r.model ?? (undefined as never)).sort()).toEqual(facts);
  });

  it("methods written as headings read the same (before: every method dropped, lint exit 0)", () => {
    // "**tasks.task.get** (legacy). Scope `task`. …" → "#### tasks.task.get (legacy)" and the rest as its text.
    const headed = SPEC_TEXT.replace(/^\*\*([a-z][\w.]*)\*\*((?: \([^)\n]*\))?)[.:]? ?(.*)$/gm, (_all, name: string, marker: string, rest: string) => `#### ${name}${marker}\n\n${rest}`);
    expect(headed).not.toBe(SPEC_TEXT);
    const r = buildFromText(headed, "spec.md");
    const lost = facts.filter((a) => !new Set(factAtoms(r.model ?? (undefined as never))).has(a));
    expect(lost.join("\n")).toBe("");
  });
});
