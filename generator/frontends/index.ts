import type { FrontEnd } from "../model/front-end.js";
import { SPEC_FRONT_END } from "../read/front-end.js";
import { REFERENCE_FRONT_END } from "../reference/front-end.js";
import type { InputSource } from "../source/index.js";

export type { FrontEnd, FrontEndReading } from "../model/front-end.js";

/**
 * The table of front ends (issue 27, after hey-api's parsers per OpenAPI version, dispatched by one table): a new
 * dialect is a row here, or of the table a caller passes (`GenerateOptions.frontEnds`); the model, the checks and
 * the emitters do not change for it. These are this generator's, in the order they are asked.
 */
export const FRONT_ENDS: readonly FrontEnd[] = [SPEC_FRONT_END, REFERENCE_FRONT_END];

/** The front end that reads `source`: the one its `kind` names, else the first whose `detect` says yes. */
export function frontEndFor(source: InputSource, table: readonly FrontEnd[] = FRONT_ENDS): FrontEnd | null {
  if (source.kind) return table.find((f) => f.kind === source.kind) ?? null;
  return table.find((f) => f.detect(source)) ?? null;
}
