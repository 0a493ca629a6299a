import type { FrontEnd } from "../model/front-end.js";
import { specFile } from "../parse/markdown.js";
import { readSpec } from "./index.js";
import { account } from "./ledger.js";
import { findQuotedSecrets } from "./secrets.js";
import { looksLikeYfm } from "../source/index.js";

/**
 * The front end of the specification's Markdown dialect (spec-source/README.md): one file, read section by section
 * (read/index.ts), its quoted credentials found (read/secrets.ts), and every row, list item and backticked name under
 * a method, a resource or an error table accounted for once the model has linked the facts (read/ledger.ts).
 */
export const SPEC_FRONT_END: FrontEnd = {
  kind: "spec",
  // The default dialect for a single file; a folder, or a page in YFM (reference/front-end.ts), is another front end's.
  detect: (source) => source.files.length === 1 && !looksLikeYfm(source.files[0]?.text ?? ""),
  read(source) {
    const input = source.files[0];
    if (!input) throw new Error("the spec front end reads a source of one file");
    const file = specFile(input.path, input.text);
    const read = readSpec(file);
    const quoted = findQuotedSecrets(file);
    return {
      fragments: read.fragments,
      diagnostics: [...read.diagnostics, ...quoted.diagnostics],
      secrets: quoted.secrets,
      afterModel(model, modelDiagnostics) {
        // A line some reader or the model stage warned about is accounted for by that warning.
        const ledger = account(file, [...read.diagnostics, ...modelDiagnostics], read.ledger.scopes, read.ledger.placed, model);
        return { diagnostics: ledger.diagnostics, readerSkips: ledger.result.skipped };
      },
    };
  },
};
