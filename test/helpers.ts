import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadRuntime } from "../generator/cli/runtime.js";
import { loadTemplates } from "../generator/cli/templates.js";
import { buildFromText } from "../generator/generate.js";
import type { Method, Model } from "../generator/model/types.js";
import type { InputSource } from "../generator/source/index.js";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const SPEC_PATH = "spec-source/collaboration-platform-api.md";
export const SPEC_TEXT = readFileSync(new URL(`../${SPEC_PATH}`, import.meta.url), "utf8");

/** A minimal spec around a body of Markdown: a title, an Endpoints section and one area. */
export function endpointSpec(body: string, area = "Tasks"): string {
  return `# Test API\n\n## Endpoints\n\n### ${area}\n\n${body}\n`;
}

export function build(text: string) {
  return buildFromText(text, "spec.md");
}

/** The model of a spec that must read without errors. */
export function modelOf(text: string): Model {
  const r = build(text);
  if (!r.model) throw new Error(`spec has errors:\n${r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join("\n")}`);
  return r.model;
}

export function method(model: Model, name: string, version: "legacy" | "v3" = "legacy"): Method {
  const m = model.methods.find((x) => x.name === name && x.version === version);
  if (!m) throw new Error(`no method ${version}:${name}`);
  return m;
}

/** Drops `source` members, to compare model fragments by content. */
export function withoutSources<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === "source" ? undefined : v))) as T;
}

/** The built-in templates, as the CLI loads them. */
export const TEMPLATES = loadTemplates(null);

/** The compiled runtimes (`npm test` builds them first). */
export const RUNTIME = loadRuntime();

/** Options of `generate()` in tests; `format: false` skips prettier where a test runs it many times. */
/** `customTemplates: []` as the CLI passes it without `--templates`: the built-in templates print their final layout. */
export const GEN = { specPath: "spec.md", generatorName: "collab-rest-codegen", generatorVersion: "0.0.0", templates: TEMPLATES, runtime: RUNTIME, customTemplates: [] as string[] };

/** Every file below `dir`, relative to it with `/` separators, sorted; none when `dir` is not there. */
export function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, prefix: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`);
      else out.push(`${prefix}${e.name}`);
    }
  };
  if (existsSync(dir)) walk(dir, "");
  return out.sort();
}

/**
 * A folder of the platform's reference as the CLI reads it: every `.md` file below `dir`, named `prefix/<path>`,
 * in path order.
 */
export function referenceFolder(dir: string, prefix: string): InputSource {
  const files = filesBelow(dir)
    .filter((p) => p.endsWith(".md"))
    .map((p) => ({ path: `${prefix}/${p}`, text: readFileSync(join(dir, p), "utf8") }));
  return { kind: "reference", root: prefix, files };
}
