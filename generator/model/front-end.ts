import type { Diagnostic } from "../diagnostics/catalogue.js";
import type { InputSource } from "../source/index.js";
import type { Fragments } from "./fragments.js";
import type { Model, ModelOptions } from "./types.js";

/**
 * What a front end is (issue 27): one per input dialect, it says whether it reads a source (`detect`) and reads it
 * into the model's fragments (`read`). The table that asks them is frontends/index.ts.
 */
export interface FrontEnd {
  /** The dialect's name (`spec`, `reference`, …), as a source's `kind` names it. */
  kind: string;
  /** Whether this front end reads the source; the first row that says yes reads it. */
  detect(source: InputSource): boolean;
  read(source: InputSource, options: ModelOptions): FrontEndReading;
}

export interface FrontEndReading {
  fragments: Fragments;
  /** Every problem of the reading, at its file, line and column; never an exception. */
  diagnostics: Diagnostic[];
  /** Credentials the input quotes: no generated file may hold them. */
  secrets: string[];
  /**
   * What the front end checks once the model stage has linked its facts (the spec's no-drop ledger), given the model
   * and the model stage's diagnostics: more diagnostics, and the count of what it skipped on purpose.
   */
  afterModel?(model: Model, modelDiagnostics: readonly Diagnostic[]): { diagnostics: Diagnostic[]; readerSkips?: Model["readerSkips"] };
}
