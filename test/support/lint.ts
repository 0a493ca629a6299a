import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reachedSchemas } from "../../generator/emit/openapi/components.js";
import { ROOT } from "../helpers.js";

export interface LintProblem {
  ruleId: string;
  severity: string;
  pointer: string;
}

/** redocly's problems in one document, with the repository's redocly.yaml (one run per file: its json format prints one object per file). */
export function lintProblems(file: string): LintProblem[] {
  const r = spawnSync(process.execPath, [join(ROOT, "node_modules/@redocly/cli/bin/cli.js"), "lint", "--config", join(ROOT, "redocly.yaml"), "--format", "json", file], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 << 20,
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", CI: "true" },
  });
  const report = JSON.parse(r.stdout) as { totals: { errors: number }; problems: Array<{ ruleId: string; severity: string; location: Array<{ pointer: string }> }> };
  return report.problems.map((p) => ({ ruleId: p.ruleId, severity: p.severity, pointer: p.location[0]?.pointer ?? "" }));
}

/**
 * Lints both documents of a folder and returns the problems other than the one kind redocly.yaml allows, and the
 * schemas of that kind: no-unused-components of a resource that neither document names (kept in both as a described
 * fact, generator/emit/openapi/components.ts).
 */
export function lintDocuments(folder: string): { others: Array<LintProblem & { file: string }>; unnamed: string[] } {
  const docs = ["legacy", "v3"].map((v) => join(folder, `openapi/openapi.${v}.json`));
  const reached = new Set<string>();
  for (const d of docs) for (const n of reachedSchemas(JSON.parse(readFileSync(d, "utf8")) as Record<string, unknown>)) reached.add(n);
  const others: Array<LintProblem & { file: string }> = [];
  const unnamed = new Set<string>();
  for (const d of docs) {
    for (const p of lintProblems(d)) {
      const name = p.pointer.startsWith("#/components/schemas/") ? p.pointer.slice("#/components/schemas/".length) : "";
      if (p.ruleId === "no-unused-components" && name && !reached.has(name)) unnamed.add(name);
      else others.push({ ...p, file: d });
    }
  }
  return { others, unnamed: [...unnamed].sort() };
}
