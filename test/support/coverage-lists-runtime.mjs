// After `vitest run --coverage`: the coverage gate is over the runtime's sources (vitest.config.ts). A gate over zero
// files passes, so a moved folder or a wrong `include` would silently turn it off: this checks that the report lists
// every TypeScript file of runtime/ (issue 27, decisions.md D27).
import { readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

const root = resolve(import.meta.dirname, "../..");
const summary = JSON.parse(readFileSync(join(root, ".tmp/coverage/coverage-summary.json"), "utf8"));
const listed = new Set(Object.keys(summary).filter((k) => k !== "total").map((k) => relative(root, k).split(sep).join("/")));
const sources = [];
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const full = join(d, e.name);
    if (e.isDirectory()) walk(full);
    else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) sources.push(relative(root, full).split(sep).join("/"));
  }
};
walk(join(root, "runtime"));
const missing = sources.filter((s) => !listed.has(s));
if (sources.length === 0 || missing.length > 0) {
  console.error(`coverage report lists ${listed.size} files; runtime sources missing from it: ${missing.join(", ") || "(no runtime sources found)"}`);
  process.exit(1);
}
console.log(`coverage report lists all ${sources.length} runtime sources`);
