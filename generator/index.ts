export { generate, buildFromText, type GenerateResult } from "./generate.js";
export type { GenerateOptions } from "./options.js";
export type { Diagnostic, DiagnosticCode, Severity } from "./diagnostics/catalogue.js";
export { formatDiagnostics, type DiagnosticFormat } from "./diagnostics/format.js";
export type * from "./model/types.js";
