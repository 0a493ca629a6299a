import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildFromText } from "../../generator/generate.js";
import { fieldFacts } from "../grammar/facts.js";
import { printSpec, specArb } from "../grammar/random-spec.js";

/**
 * Issue 11: random small specs built from the grammar (methods, parameters, nested members, values, defaults, null,
 * errors), each written in random surfaces, must read back to exactly the facts that were generated: nothing lost,
 * nothing moved to another owner, nothing invented, and no warning.
 */

const NUM_RUNS = Number(process.env.GRAMMAR_RUNS ?? 2000);

describe("property: random specs of the grammar read back to exactly their facts", () => {
  it(`${NUM_RUNS} generated specs in random surfaces`, { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(specArb, (methods) => {
        const text = printSpec(methods);
        const r = buildFromText(text, "spec.md");
        const warnings = r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
        expect(warnings, text).toEqual([]);
        const model = r.model;
        expect(model, text).not.toBeNull();
        if (!model) return;
        expect(model.methods.map((m) => m.name)).toEqual(methods.map((m) => m.name));
        for (const [i, g] of methods.entries()) {
          const m = model.methods[i];
          expect(m?.scopes).toEqual([g.scope]);
          expect(m?.params.map((p) => fieldFacts(p, model)), text).toEqual(g.params.map((p) => fieldFacts(p, null)));
          expect(m?.errors.map((e) => ({ status: e.status, code: e.code, text: e.text })), text).toEqual(g.errors);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
