import type { Diagnostic } from "../../diagnostics/catalogue.js";
import type { Fragments } from "../fragments.js";
import type { KnownGap, Method, ModelOptions, Resource, Source, Version } from "../types.js";

/**
 * What the model stage's passes share (model/build.ts runs them in order): the fragments, the methods and resources
 * as the passes leave them, the known gaps and the diagnostics so far. Each pass is one file of this folder.
 */
export interface PassContext {
  specFile: string;
  f: Fragments;
  options: ModelOptions;
  methods: Method[];
  resources: Resource[];
  gaps: KnownGap[];
  /**
   * The gaps about a method's errors (`gapKey`): the front end's (Fragments.facts.errorGaps), and those a pass adds in
   * its own words ("… scope, access and errors").
   */
  errorGaps: Set<string>;
  diagnostics: Diagnostic[];
  /** The method of a name (or an alias) and version, among the methods so far. */
  find(name: string, v?: Version): Method | undefined;
}

export function spanAt(s: Source, length: number) {
  return { ...s, endLine: s.line, endColumn: s.column + length };
}
