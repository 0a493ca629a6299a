import { checkModel } from "./check/rules.js";
import { type Diagnostic, hasErrors, sortDiagnostics } from "./diagnostics/catalogue.js";
import { emitManifest, emitModelJson, emitOpenApiFiles } from "./emit/index.js";
import type { GeneratedFile } from "./emit/files.js";
import { buildModel } from "./model/build.js";
import type { Model } from "./model/types.js";
import type { GenerateOptions } from "./options.js";
import { specFile } from "./parse/markdown.js";
import { readSpec } from "./read/index.js";
import { sha256 } from "./util/hash.js";

export interface GenerateResult {
  /** Empty when a diagnostic is an error: nothing is emitted after a failed stage. */
  files: GeneratedFile[];
  diagnostics: Diagnostic[];
  model: Model | null;
}

/** The spec's text up to the model, with every diagnostic of reading, the model stage and the checks. */
export function buildFromText(specText: string, specPath: string): { model: Model | null; diagnostics: Diagnostic[] } {
  const file = specFile(specPath, specText.replace(/\r\n?/g, "\n"));
  const read = readSpec(file);
  const built = buildModel(specPath, read.fragments);
  // Every stage runs so that one run reports every problem; nothing is emitted after an error.
  const diagnostics = [...read.diagnostics, ...built.diagnostics, ...checkModel(built.model)];
  return { model: hasErrors(diagnostics) ? null : built.model, diagnostics: sortDiagnostics(diagnostics) };
}

/**
 * The pure core: spec text in, generated files and diagnostics out. Touches no disk and no process state;
 * the CLI and the writer do the I/O.
 */
export function generate(specText: string, options: GenerateOptions): GenerateResult {
  const { model, diagnostics } = buildFromText(specText, options.specPath);
  if (!model) return { files: [], diagnostics, model: null };
  const version = options.version ?? `0.0.0-spec.${sha256(specText).slice(0, 12)}`;
  const opts = { ...options, version };
  const files: GeneratedFile[] = [emitModelJson(model, opts), ...emitOpenApiFiles(model, opts)];
  files.push(emitManifest(files, specText, opts));
  return { files, diagnostics, model };
}
