import type { Diagnostic } from "../diagnostics/catalogue.js";
import { type Fragments, type StatementRole, statementsAbout } from "./fragments.js";
import { platformFacts } from "./platform.js";
import { withKnownEvents, withKnownPlacements } from "./events.js";
import { MODEL_VERSION, type KnownGap, type Model, type ModelOptions, type Version } from "./types.js";
import type { PassContext } from "./passes/context.js";
import { applyCrossSectionRules } from "./passes/cross-section.js";
import { statusesFromCatalogue } from "./passes/error-statuses.js";
import { openErrors } from "./passes/errors-open.js";
import { liftShapes } from "./passes/lift.js";
import { addNamedMethods } from "./passes/named.js";
import { applyRequirements } from "./passes/requirements.js";
import { resolveNames } from "./passes/resolve.js";
import { relaxSelectable } from "./passes/selectable.js";
import { uniqueMethods, uniqueResources } from "./passes/unique.js";

/**
 * The model stage: merges the readers' fragments, resolves names (resource titles, "see X", "returned by"),
 * applies the spec's cross-section rules (application-context list, limits that name a method's parameters,
 * GET for 3.0 methods without parameters, statuses from the error catalogue), lifts nested shapes out as
 * resources, and reports duplicates. Each pass is one file of model/passes/, run in the order below.
 */

export function buildModel(specFile: string, f: Fragments, options: ModelOptions = {}): { model: Model; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const gaps: KnownGap[] = [...f.gaps];
  const methods = uniqueMethods(f, diagnostics);
  const find = (name: string, v?: Version) =>
    methods.find((m) => m.name === name && (v === undefined || m.version === v)) ??
    methods.find((m) => m.aliases.includes(name) && (v === undefined || m.version === v));
  const resources = uniqueResources(f, diagnostics);
  const ctx: PassContext = { specFile, f, options, methods, resources, gaps, errorGaps: new Set(f.facts.errorGaps ?? []), diagnostics, find };
  // The passes, in order: each one file of model/passes/, reading and changing the context.
  addNamedMethods(ctx);
  applyCrossSectionRules(ctx);
  resolveNames(ctx);
  relaxSelectable(ctx);
  applyRequirements(ctx);
  statusesFromCatalogue(ctx);
  openErrors(ctx);

  const { facts } = f;
  const placed = facts.placements ? withKnownPlacements(methods, facts.placements) : methods;
  const withEvents = facts.eventPayloads ? withKnownEvents(placed, facts.eventPayloads) : placed;
  const lifted = liftShapes(resources);
  const platform = platformFacts(facts.platform, f.title.source ?? { file: specFile, line: 1, column: 1 }, gaps);
  // The model's members by what the input's statements are about (the shape of model.json, decisions.md D28).
  const said = (role: StatementRole) => statementsAbout(f, role);
  const model: Model = {
    modelVersion: MODEL_VERSION,
    specFile,
    sections: f.anchors,
    title: f.title.text,
    intro: said("intro"),
    overview: said("overview"),
    envelope: facts.envelope,
    resources: lifted,
    states: { transitions: facts.transitions, notes: said("states") },
    addressing: { forms: facts.addressingForms, rules: said("addressing") },
    methods: withEvents,
    fileRetrieval: { rows: facts.fileRetrieval, rules: said("file-retrieval") },
    authentication: { rules: said("authentication") },
    events: said("events"),
    errors: { catalogue: f.catalogue, notes: said("errors") },
    limits: { table: facts.limits, rules: said("limits") },
    versioning: said("versioning"),
    knownGaps: gaps,
    platform,
    ...(facts.publicPages ? { publicPages: facts.publicPages } : {}),
    ...(facts.eventPayloads ? { eventPayloads: facts.eventPayloads } : {}),
    ...(facts.scopeList ? { scopeList: facts.scopeList } : {}),
    ...(facts.requestRates ? { requestRates: facts.requestRates } : {}),
    ...(facts.placements ? { placements: facts.placements } : {}),
  };
  return { model, diagnostics };
}

