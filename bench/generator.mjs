// Generation speed: the real spec as a fresh process (median of runs), and synthetic specs made of the
// spec's method areas repeated under new names (1x to 50x) to show how time grows with size.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, printTable, timeProcess } from "./lib.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const BIN = join(ROOT, "dist/generator/cli/main.js");
const SPEC = readFileSync(join(ROOT, "spec-source/collaboration-platform-api.md"), "utf8");

/** The spec with its Endpoints method areas repeated `times` times; each copy renames its headings and methods. */
export function syntheticSpec(times) {
  const lines = SPEC.split("\n");
  const start = lines.findIndex((l) => l === "### Tasks");
  const end = lines.findIndex((l) => l === "### Retrieving file content");
  const areas = lines.slice(start, end).join("\n");
  const copies = [];
  for (let i = 1; i < times; i++) {
    copies.push(areas.replace(/^### (.+)$/gm, `### $1 ${i}`).replace(/^\*\*([a-z][\w.]*)\*\*/gm, `**copy${i}.$1**`));
  }
  return [...lines.slice(0, end), ...copies, ...lines.slice(end)].join("\n");
}

export function benchGenerator({ runs = 7 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "crc-bench-"));
  try {
    const rows = [];
    for (const times of [1, 10, 25, 50]) {
      const spec = join(dir, `spec-${times}.md`);
      const text = times === 1 ? SPEC : syntheticSpec(times);
      writeFileSync(spec, text);
      const n = times === 1 ? runs : Math.max(5, Math.min(runs, 5));
      const ms = timeProcess(process.execPath, [BIN, "generate", "--spec", spec, "--out", join(dir, `out-${times}`)], n, { cwd: dir });
      rows.push({
        spec: times === 1 ? "real spec" : `synthetic ${times}x`,
        lines: text.split("\n").length,
        runs: n,
        "median ms": median(ms).toFixed(0),
        "min ms": Math.min(...ms).toFixed(0),
        "ms per 1x": (median(ms) / times).toFixed(0),
      });
    }
    printTable("Generation, fresh process (node startup included)", rows);
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
