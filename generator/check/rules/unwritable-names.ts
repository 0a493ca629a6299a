import { type Diagnostic, diagnostic } from "../../diagnostics/catalogue.js";
import { AREA_FILE_SUFFIX, MAX_FILE_NAME_BYTES, areaKey } from "../../model/areas.js";
import type { Model } from "../../model/types.js";

/**
 * Every area becomes files named by its key: a key no file system takes is the input's error, found before anything
 * is written (issue 24: ENAMETOOLONG after 31 files had been replaced).
 */
export function unwritableNames(model: Model): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seenAreas = new Set<string>();
  for (const m of model.methods) {
    const key = areaKey(m.name);
    if (seenAreas.has(key)) continue;
    seenAreas.add(key);
    const file = `${key}${AREA_FILE_SUFFIX}`;
    const bytes = Buffer.byteLength(file, "utf8");
    if (bytes > MAX_FILE_NAME_BYTES) {
      const at = m.source;
      out.push(diagnostic("unwritable-name", { file: at.file, line: at.line, column: at.column, endLine: at.line, endColumn: at.column + 1 }, { name: m.name.length > 60 ? `${m.name.slice(0, 60)}…` : m.name, file: file.length > 60 ? `${file.slice(0, 40)}…${file.slice(-12)}` : file, bytes, limit: MAX_FILE_NAME_BYTES }));
    }
  }
  return out;
}
