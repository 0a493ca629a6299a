import type { Diagnostic } from "../diagnostics/catalogue.js";
import type { Model } from "../model/types.js";
import { noMethods } from "./rules/no-methods.js";
import { resolvedRefs } from "./rules/resolved-refs.js";
import { unsafeNumbers } from "./rules/unsafe-numbers.js";
import { unwritableNames } from "./rules/unwritable-names.js";

/** A rule over the whole model: its diagnostics (or a throw, for a bug of the model stage). */
export type ModelRule = (model: Model) => Diagnostic[];

/** The rules, one file each in check/rules/, in the order their diagnostics are reported. */
export const RULES: readonly ModelRule[] = [noMethods, unwritableNames, resolvedRefs, unsafeNumbers];

/**
 * Rules over the whole model, after the model stage. An error here stops the run before anything is emitted.
 * A reference to a resource that does not exist is a bug of the model stage, not of the spec: it throws.
 */
export function checkModel(model: Model): Diagnostic[] {
  return RULES.flatMap((rule) => rule(model));
}
