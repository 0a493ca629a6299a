import { diagnostic } from "../../diagnostics/catalogue.js";
import { type PassContext, spanAt } from "./context.js";

/** Pass 6b: requirements as the input writes them (decisions.md D8). */
export function applyRequirements(ctx: PassContext): void {
  const { methods, diagnostics } = ctx;
  const requiredUnless = new Map((ctx.f.facts.requiredUnless ?? []).map((r) => [r.at, r]));
  // Requirements as the spec writes them (D8): a starred parameter that is also one of an "at least one of" is
  // not required on its own (a warning names both places: the spec says two things); "Required for X; ignored for
  // `p=v`" is required unless `p` is `v`. The types, the OpenAPI `required` lists and the server read the same.
  for (const m of methods) {
    for (const c of m.constraints) {
      if (c.kind !== "at-least-one") continue;
      for (const name of c.params) {
        const p = m.params.find((q) => q.name === name);
        if (!p?.required) continue;
        p.required = false;
        diagnostics.push({
          ...diagnostic(
            "ambiguous-reading",
            spanAt(c.source, 1),
            { text: c.text, reading: `\`${name}\` not required on its own: it is starred, and one of an "at least one of"` },
            { line: p.source.line, column: p.source.column, message: `\`${name}\` is starred here` },
          ),
          subject: { method: m.name },
        });
      }
    }
    for (const c of m.constraints) {
      if (c.kind !== "required-when") continue;
      for (const name of c.params) {
        const p = m.params.find((q) => q.name === name);
        if (!p?.required) continue;
        p.required = false;
        diagnostics.push({
          ...diagnostic("ambiguous-reading", spanAt(c.source, 1), { text: c.text, reading: `\`${name}\` not required on its own: it is starred, and required only ${c.condition}` }, { line: p.source.line, column: p.source.column, message: `\`${name}\` is starred here` }),
          subject: { method: m.name },
        });
      }
    }
    for (const p of m.params) {
      // The front end read the words ("Required for online events; ignored for `event_type=offline`").
      const rule = requiredUnless.get(`${p.source.line}:${p.source.column}:${p.name}`);
      if (!rule) continue;
      p.required = false;
      const text = `\`${p.name}\`: required for ${rule.when}; ignored for \`${rule.param}=${rule.value}\`.`;
      m.constraints.push({ kind: "required-unless", params: [p.name], unless: { param: rule.param, value: rule.value }, text, source: p.source });
    }
  }
}
