import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildFromText } from "../../generator/generate.js";
import type { Method } from "../../generator/model/types.js";
import { method } from "../helpers.js";
import { methodFacts } from "../grammar/facts.js";
import type { Style } from "../grammar/print.js";
import { rewriteSpec } from "../grammar/rewrite.js";
import { fieldSignature, typeSignature } from "../grammar/signature.js";

/**
 * Issue 11: the accepted forms of spec-source/README.md are the reader's tests. Each `markdown example` block is read
 * as the parameters of a method and must give exactly the `→` lines after it; each is then rewritten into every
 * other surface (bullets, sentences, a table with other headers, values in the Type or the Meaning column, members
 * inline, nested, in a table) and must give the same facts.
 */

const README = readFileSync(new URL("../../spec-source/README.md", import.meta.url), "utf8");

interface Example {
  kind: "example" | "link-example" | "method-example";
  markdown: string;
  expected: string[];
  line: number;
}

function examples(): Example[] {
  const out: Example[] = [];
  const fence = /^```markdown (example|link-example|method-example)\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(README); m; m = fence.exec(README)) {
    const lines = (m[2] ?? "").replace(/\n$/, "").split("\n");
    const firstArrow = lines.findIndex((l) => l.startsWith("→ "));
    out.push({
      kind: m[1] as Example["kind"],
      markdown: lines.slice(0, firstArrow).join("\n"),
      expected: lines.slice(firstArrow).map((l) => l.slice(2)),
      line: README.slice(0, m.index).split("\n").length,
    });
  }
  return out;
}

const all = examples();
const paramExamples = all.filter((e) => e.kind === "example");
const linkExamples = all.filter((e) => e.kind === "link-example");
const methodExamples = all.filter((e) => e.kind === "method-example");

/** One method's scopes, constraints and errors, in the notation of spec-source/README.md#errors. */
function methodLines(m: Method): string[] {
  const scopes = `scopes: ${m.scopes ? m.scopes.join(", ") : "none"}${m.scopeNote ? ` (${m.scopeNote})` : ""}`;
  const constraints = m.constraints.map((c) =>
    c.kind === "at-least-one"
      ? `at least one of: ${c.params.join(", ")}`
      : c.kind === "required-unless"
        ? `${c.params.join(", ")} required unless ${c.unless.param}=${c.unless.value}`
        : `${c.kind}`,
  );
  const required = m.params.filter((p) => p.required).map((p) => p.name);
  const errors = m.errors.map((e) => {
    const status = e.statuses.length > 0 ? e.statuses.join(" or ") : (e.statusClass ?? "-");
    const code = e.code === null ? "-" : e.code === "" ? '""' : e.code;
    const failure = { missing: "missing", type: "of wrong type", value: "of a value not allowed", "none-of": "none given" } as const;
    const trigger = e.trigger ? ` ⇐ ${e.trigger.parameter} ${failure[e.trigger.failure]}` : "";
    return `error ${status} ${code}${e.text !== null ? ` ${JSON.stringify(e.text)}` : ""}${e.cause ? ` — ${e.cause}` : ""}${trigger}`;
  });
  // Which parameters stay required is shown where a method has parameters (D8 relaxes some stars).
  const subject = [...(m.resultSubject ? [`result: the ${m.resultSubject}`] : []), ...(m.applicationContextOnly ? ["application context only"] : [])];
  // The field forms of spec-source/README.md#nothing-dropped.
  const named = m.params.flatMap((p) => [
    ...(p.schemes ? [`${p.name} schemes: ${p.schemes.join(", ")}`] : []),
    ...(p.knownValues ? [`${p.name} known values: ${p.knownValues.join(", ")}`] : []),
    ...(p.keyPrefixes ? [`${p.name} key prefixes: ${p.keyPrefixes.map((k) => (k.meaning ? `${k.prefix} (${k.meaning})` : k.prefix)).join(", ")}`] : []),
  ]);
  return [scopes, ...(m.params.length > 0 ? [`required: ${required.join(", ") || "none"}`] : []), ...constraints, ...subject, ...named, ...errors];
}

function specOf(markdown: string): string {
  return `# T\n\n## Endpoints\n\n### Area\n\n**a.b**. Scope \`x\`.\n\n${markdown}\n`;
}

const SURFACES: Style[] = [
  { params: "bullets", members: "colon", scopeColon: false, valuesInMeaning: false, headers: 0 },
  { params: "bullets", members: "nested", scopeColon: true, valuesInMeaning: true, headers: 1 },
  { params: "sentences", members: "with", scopeColon: false, valuesInMeaning: false, headers: 2 },
  { params: "one-bullet", members: "paren", scopeColon: true, valuesInMeaning: true, headers: 3 },
  { params: "table", members: "table", scopeColon: false, valuesInMeaning: true, headers: 4 },
  { params: "table", members: "paren", scopeColon: true, valuesInMeaning: false, headers: 1 },
  { params: "bullets", members: "table", scopeColon: false, valuesInMeaning: false, headers: 2 },
];

describe("spec-source/README.md: the examples of the grammar are the reader's tests", () => {
  it("has examples of every part of the grammar", () => {
    expect(paramExamples.length).toBeGreaterThanOrEqual(15);
    expect(linkExamples.length).toBeGreaterThanOrEqual(3);
    expect(methodExamples.length).toBeGreaterThanOrEqual(6);
  });

  it.each(paramExamples.map((e) => [`README.md:${e.line}`, e] as const))("%s reads as written", (_, e) => {
    const r = buildFromText(specOf(e.markdown), "spec.md");
    if (!r.model) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
    const got = [
      ...r.diagnostics.filter((d) => d.severity === "warning").map((d) => `⚠ ${d.code}`),
      ...method(r.model, "a.b").params.map((p) => fieldSignature(p, r.model)),
    ];
    expect(got).toEqual(e.expected);
  });

  it.each(paramExamples.filter((e) => !e.expected.some((x) => x.startsWith("⚠"))).map((e) => [`README.md:${e.line}`, e] as const))(
    "%s reads the same in every surface",
    (_, e) => {
      const text = specOf(e.markdown);
      const first = buildFromText(text, "spec.md").model;
      if (!first) throw new Error("no model");
      const facts = methodFacts(method(first, "a.b"), first);
      for (const style of SURFACES) {
        const again = buildFromText(rewriteSpec(text, first, style), "spec.md");
        expect(again.diagnostics.filter((d) => d.severity === "warning"), JSON.stringify(style)).toEqual([]);
        const model = again.model;
        if (!model) throw new Error("no model");
        expect(methodFacts(method(model, "a.b"), model), JSON.stringify(style)).toEqual(facts);
      }
    },
  );

  it.each(linkExamples.map((e) => [`README.md:${e.line}`, e] as const))("%s links as written", (_, e) => {
    const [resources, methodText] = e.markdown.split("\n---\n");
    const spec = `# T\n\n## Resources and their fields\n\n${resources}\n\n## Endpoints\n\n### Area\n\n${methodText}\n`;
    const r = buildFromText(spec, "spec.md");
    if (!r.model) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
    const result = method(r.model, "a.b").result;
    const line = `result${result?.key ? `.${result.key}` : ""}: ${result ? typeSignature(result.type, r.model) : "none"}`;
    expect([line]).toEqual(e.expected);
  });

  it.each(methodExamples.map((e) => [`README.md:${e.line}`, e] as const))("%s reads as written", (_, e) => {
    const r = buildFromText(`# T\n\n## Endpoints\n\n### Area\n\n${e.markdown}\n`, "spec.md");
    if (!r.model) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
    const warnings = r.diagnostics.filter((d) => d.severity === "warning").map((d) => `⚠ ${d.code}`);
    expect([...warnings, ...methodLines(method(r.model, "a.b"))]).toEqual(e.expected);
  });
});
