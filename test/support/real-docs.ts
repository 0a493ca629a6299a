import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.js";

export const REAL_DOCS = join(ROOT, "test/fixtures/real-docs");

export interface RealResponse {
  file: string;
  method: string;
  version: "legacy" | "v3";
  body: unknown;
}

/**
 * Published examples sometimes carry `// ...` comments and `...` lines (SOURCES.md keeps them on purpose): they
 * are taken out, with the commas they leave dangling, before parsing.
 */
export function lenientJson(text: string): unknown {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    // Cut a `//` comment that stands outside strings ("https://..." inside a string stays).
    let inString = false;
    let cut = line.length;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (ch === "\\" && inString) i++;
      else if (ch === '"') inString = !inString;
      else if (!inString && ch === "/" && line[i + 1] === "/") {
        cut = i;
        break;
      }
    }
    const kept = line.slice(0, cut);
    if (/^\s*\.\.\.\s*$/.test(kept)) continue;
    out.push(kept);
  }
  return JSON.parse(out.join("\n").replace(/,(\s*[}\]])/g, "$1"));
}

/** Every real response example (`<method>[.legacy|.v3].response[.N].json`), top level and `extra/`. */
export function realResponses(): RealResponse[] {
  if (!existsSync(REAL_DOCS)) return [];
  const out: RealResponse[] = [];
  for (const dir of ["", "extra"]) {
    for (const file of readdirSync(join(REAL_DOCS, dir)).sort()) {
      const m = /^(.+?)(?:\.(legacy|v3))?\.response(?:\.\d+)?\.json$/.exec(file);
      if (!m) continue;
      const rel = dir ? `${dir}/${file}` : file;
      out.push({ file: rel, method: m[1] ?? "", version: m[2] === "v3" ? "v3" : "legacy", body: lenientJson(readFileSync(join(REAL_DOCS, rel), "utf8")) });
    }
  }
  return out;
}
