import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Issue 27 item 6: the stages' imports flow one way (docs style.md §2). A room may import only the rooms listed
 * before it: positions, the input's files and diagnostics at the ground floor, then the model (plain data and the
 * questions asked of it), the front ends that read an input into it and their table, the check, the options of a run, the diff of two models, the
 * emitters, the skeleton's room, the render and write stage, and the pipeline and CLI on top. Read from the import
 * lines of every source file, so that a new upward import fails here.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const GENERATOR = join(ROOT, "generator");

/** Rooms from the ground up; a file may import its own room and the rooms before it. */
const ROOMS = ["util", "source", "diagnostics", "model", "parse", "read", "yfm", "reference", "frontends", "check", "options", "diff", "emit", "skeleton", "render", "generate", "cli", "index"] as const;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(full));
    else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

const roomOf = (path: string) => (path.includes("/") ? path.slice(0, path.indexOf("/")) : path.replace(/\.ts$/, ""));

/** Every relative import of the generator's sources that stays inside generator/: [from, to], paths below generator/. */
function importPairs(): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const file of sources(GENERATOR)) {
    const from = relative(GENERATOR, file).split(sep).join("/");
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"|\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/gm)) {
      const spec = m[1] ?? m[2] ?? "";
      const to = posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.js$/, ".ts");
      if (to.startsWith("../")) continue; // the runtime's own folder: shipped code, not a stage
      pairs.push([from, to]);
    }
  }
  return pairs;
}

describe("the generator's stages import one way (issue 27)", () => {
  const pairs = importPairs();

  it("reads the import lines of every stage", () => {
    // A reader that found nothing would pass every check below.
    expect(pairs.length).toBeGreaterThan(150);
    for (const room of ROOMS) expect(pairs.some(([from, to]) => roomOf(from) === room || roomOf(to) === room), room).toBe(true);
  });

  it("every file belongs to a room of the list", () => {
    const unknown = [...new Set(pairs.flatMap((p) => p.map(roomOf)))].filter((r) => !(ROOMS as readonly string[]).includes(r));
    expect(unknown).toEqual([]);
  });

  it("no import runs back up (the model imported five reader files and diagnostics the model's types before issue 27)", () => {
    const rank = (path: string) => (ROOMS as readonly string[]).indexOf(roomOf(path));
    const upward = pairs.filter(([from, to]) => rank(to) > rank(from)).map(([from, to]) => `${from} → ${to}`);
    expect(upward).toEqual([]);
  });

  it("no emitter imports another emitter", () => {
    const emitter = (path: string) => /^emit\/(types|client|server|openapi)\//.exec(path)?.[1];
    const across = pairs.filter(([from, to]) => emitter(from) && emitter(to) && emitter(from) !== emitter(to)).map(([from, to]) => `${from} → ${to}`);
    expect(across).toEqual([]);
  });

  it("the emitters see the model's prose as opaque: they import the model's view, and only the printers unwrap it", () => {
    // The type checker does the rest (model/view.ts: a `Prose` is no string, not even in a template literal); this
    // keeps the two doors it relies on shut: the model's own types, and the one function that unwraps prose.
    const intoEmit = pairs.filter(([from]) => from.startsWith("emit/"));
    expect(intoEmit.filter(([, to]) => to === "model/types.ts").map(([from]) => from)).toEqual([]);
    expect(intoEmit.some(([, to]) => to === "model/view.ts")).toBe(true);
    const unwrapping = [...new Set(intoEmit.filter(([from, to]) => to === "emit/prose.ts" && /\bwords\b/.test(readFileSync(join(GENERATOR, from), "utf8"))).map(([from]) => from))].sort();
    // The printers of the words into generated files: comments, OpenAPI descriptions, the quoted error texts the
    // server and the mock answer with, the document's title in the packages' descriptions and READMEs. A new entry here is a decision to review, not a fix for a type error.
    expect(unwrapping).toEqual([
      "emit/client/index.ts",
      "emit/openapi/document.ts",
      "emit/openapi/schema.ts",
      "emit/server/index.ts",
      "emit/server/mock.ts",
      "emit/ts/method-doc.ts",
      "emit/ts/printer.ts",
      "emit/types/index.ts",
    ]);
    // The explicit conversions the type checker lets through on any value: no cast to a string, no `.toString()`,
    // and `String(…)` only where its argument is no model prose (a flag, a status, a template helper's value).
    const emitFiles = sources(join(GENERATOR, "emit")).filter((f) => !f.endsWith("prose.ts"));
    const code = (f: string) => readFileSync(f, "utf8").replace(/^\s*(?:\/\/|\*).*$/gm, "").replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
    expect(emitFiles.filter((f) => /\bas unknown as string\b|\bas unknown\) as string\b|\.toString\(/.test(code(f))).map((f) => relative(GENERATOR, f))).toEqual([]);
    const conversions = emitFiles.flatMap((f) => [...code(f).matchAll(/\bString\(([^()]*)\)/g)].map((m) => `${relative(GENERATOR, f).split(sep).join("/")}: String(${m[1]})`));
    expect(conversions.sort()).toEqual([
      "emit/openapi/document.ts: String(e.status)",
      // A template error's message.
      "emit/templates.ts: String(e.message ?? err)",
      // The template helpers `comment` and `lineComment`: printers of whatever the view hands them.
      "emit/templates.ts: String(value)",
      "emit/templates.ts: String(value)",
      // A literal value of an enum or a default that is no string (a number, a boolean).
      "emit/ts/printer.ts: String(v)",
      "emit/types/index.ts: String(f)",
    ]);
  });
});

describe("the runtime's modules import one way (issue 27 item 5: its two circles are cut)", () => {
  const RUNTIME = join(ROOT, "runtime");
  /** Every relative import of the runtime's sources, type-only and dynamic ones too: a circle of types is a circle. */
  const edges = new Map<string, string[]>();
  for (const file of sources(RUNTIME)) {
    const from = relative(RUNTIME, file).split(sep).join("/");
    const text = readFileSync(file, "utf8");
    const to = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"|\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/gm)].map((m) =>
      posix.normalize(posix.join(posix.dirname(from), m[1] ?? m[2] ?? "")).replace(/\.js$/, ".ts"),
    );
    edges.set(from, to);
  }

  it("reads the runtime's imports", () => {
    expect(edges.size).toBeGreaterThan(25);
    expect(edges.get("client/runtime.ts")).toContain("client/bulk.ts");
  });

  it("has no import circle (client/runtime ↔ bulk ↔ recover and server/index ↔ mock were two)", () => {
    const circles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const walk = (node: string, path: string[]) => {
      if (state.get(node) === "done") return;
      if (state.get(node) === "open") {
        circles.push([...path.slice(path.indexOf(node)), node].join(" → "));
        return;
      }
      state.set(node, "open");
      for (const next of edges.get(node) ?? []) if (edges.has(next)) walk(next, [...path, node]);
      state.set(node, "done");
    };
    for (const node of [...edges.keys()].sort()) walk(node, []);
    expect(circles).toEqual([]);
  });
});
