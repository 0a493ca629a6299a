import { type Diagnostic, diagnostic } from "../../diagnostics/catalogue.js";
import type { Model } from "../../model/types.js";

/** A model with no described method generates nothing worth having: an error at the top of the input. */
export function noMethods(model: Model): Diagnostic[] {
  if (model.methods.some((m) => m.described)) return [];
  // A folder of the reference (a model with public pages) is told what its pages should hold, not a spec's section.
  return [diagnostic("no-methods", { file: model.specFile, line: 1, column: 1, endLine: 1, endColumn: 1 }, model.publicPages ? { folder: true } : {})];
}
