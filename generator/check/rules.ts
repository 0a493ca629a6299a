import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { Model, TypeRef } from "../model/types.js";
import { AREA_FILE_SUFFIX, MAX_FILE_NAME_BYTES, areaKey } from "../model/areas.js";

/**
 * Rules over the whole model, after the model stage. An error here stops the run before anything is emitted.
 * A reference to a resource that does not exist is a bug of the model stage, not of the spec: it throws.
 */
export function checkModel(model: Model): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!model.methods.some((m) => m.described)) {
    out.push(diagnostic("no-methods", { file: model.specFile, line: 1, column: 1, endLine: 1, endColumn: 1 }, {}));
  }
  const names = new Set(model.resources.map((r) => r.name));
  const visit = (t: TypeRef, where: string): void => {
    switch (t.kind) {
      case "ref":
        if (!names.has(t.resource)) throw new Error(`unresolved resource '${t.resource}' in ${where}`);
        return;
      case "object":
        if (t.extends && !names.has(t.extends)) throw new Error(`unresolved resource '${t.extends}' in ${where}`);
        for (const m of t.members) visit(m.type, `${where}.${m.name}`);
        if (t.additional) visit(t.additional, `${where}[*]`);
        return;
      case "array":
        visit(t.items, `${where}[]`);
        return;
      case "union":
        for (const o of t.options) visit(o, where);
        return;
      default:
        return;
    }
  };
  // Every area becomes files named by its key: a key no file system takes is the spec's error, found before anything
  // is written (issue 24: ENAMETOOLONG after 31 files had been replaced).
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
  for (const r of model.resources) visit(r.type, r.name);
  for (const m of model.methods) {
    for (const p of m.params) visit(p.type, `${m.name}(${p.name})`);
    if (m.result) visit(m.result.type, `${m.name} result`);
  }
  return out;
}
