import { mapType } from "./map-type.js";
import { openByUncoded } from "./passes/errors-open.js";
import { withKnownEvents, withKnownPlacements } from "./events.js";
import type { Field, KnownGap, Method, Model, Resource, TypeRef } from "./types.js";
import { ordinal } from "../util/order.js";

/**
 * One model from the spec and the platform's reference (issue 29 item 1, decisions.md D24):
 *
 * - a method the spec describes is the spec's: its facts stand, and the reference fills only what the spec leaves
 *   "not shown" or unnamed: an unknown result or parameter type, a result the spec does not state, the scopes it does
 *   not name. Each filled fact keeps the page's position, and the gap it answers leaves `knownGaps`;
 * - a method the reference documents and the spec does not describe (only names, or never mentions) comes from the
 *   reference whole;
 * - the spec's envelope, error catalogue (the reference adds the codes it lacks), platform facts and prose stand; the
 *   envelope takes the reference's 3.0 error body and paging members (`total`, `next`) where the spec leaves them
 *   "not shown".
 *
 * Where both say a thing and disagree, the spec's stays: `compare` lists those points (diff/index.ts). The
 * reference's resources keep their names unless the spec has one of the same name; then the reference's is renamed
 * `<Name>Reference` everywhere the reference's methods name it, so that no type of one input is read as the other's.
 */
export interface MergeReport {
  /** Methods of the merged model by where they come from. */
  methods: { spec: number; reference: number; both: number };
  /** The spec's gaps a page answered, with the page that answered each (a gap of several methods once per method). */
  answered: Array<{ gap: string; by: string }>;
  /** The spec's known gaps, and those left in the merged model (a gap goes when every node it applies to is answered). */
  gaps: { spec: number; left: number };
}

export function mergeModels(spec: Model, reference: Model): { model: Model; report: MergeReport } {
  const key = (m: Method) => `${m.version}:${m.name}`;
  const fromReference = new Map(reference.methods.filter((m) => m.described).map((m) => [key(m), m] as [string, Method]));
  const answered: MergeReport["answered"] = [];
  const renamed = renameClashes(spec.resources, reference.resources);
  const rename = (t: TypeRef): TypeRef => mapType(t, (x) => (x.kind === "ref" && renamed.has(x.resource) ? { kind: "ref", resource: renamed.get(x.resource) as string } : x.kind === "object" && x.extends && renamed.has(x.extends) ? { ...x, extends: renamed.get(x.extends) as string } : x));
  const ofReference = (m: Method): Method => ({
    ...m,
    params: m.params.map((p) => ({ ...p, type: rename(p.type) })),
    result: m.result ? { ...m.result, type: rename(m.result.type) } : null,
  });
  const gaps = spec.knownGaps.map((g) => ({ ...g, appliesTo: [...g.appliesTo] }));
  // A gap the page answers for this method: the method leaves the gap's list, and a gap left with no method goes.
  // Returns how many gaps it answered.
  const answer = (m: Method, what: (g: KnownGap) => boolean, by: string): number => {
    const node = `method:${m.version}:${m.name}`;
    let count = 0;
    for (let i = gaps.length - 1; i >= 0; i--) {
      const g = gaps[i] as KnownGap;
      if (!g.appliesTo.includes(node) || !what(g)) continue;
      count++;
      answered.push({ gap: `${g.subject} (${m.name})`, by });
      g.appliesTo = g.appliesTo.filter((a) => a !== node && !a.startsWith(`param:${m.version}:${m.name}:`));
      if (!g.appliesTo.some((a) => a.startsWith("method:"))) gaps.splice(i, 1);
    }
    return count;
  };
  let both = 0;
  const methods: Method[] = [];
  const specKeys = new Set<string>();
  for (const m of spec.methods) {
    const other = fromReference.get(key(m));
    if (!m.described) {
      // A method the spec only names: the reference's page describes it, whole.
      if (other) {
        methods.push({ ...ofReference(other), mentions: m.mentions, aliases: [...new Set([...m.aliases, ...other.aliases])] });
        specKeys.add(key(m));
        answer(m, () => true, `${other.source.file}:${other.source.line}`);
      } else methods.push(m);
      continue;
    }
    specKeys.add(key(m));
    if (!other) {
      methods.push(m);
      continue;
    }
    both++;
    methods.push(fill(m, ofReference(other), answer, gaps, answered));
  }
  for (const [k, m] of fromReference) if (!specKeys.has(k)) methods.push(ofReference(m));
  // A gap of the whole model (not of a method) that the reference answers as a whole, where `at` says it.
  const answerAll = (what: (g: KnownGap) => boolean, at: { file: string; line: number }) => {
    for (let i = gaps.length - 1; i >= 0; i--) {
      const g = gaps[i] as KnownGap;
      if (g.appliesTo.some((a) => a.startsWith("method:")) || !what(g)) continue;
      answered.push({ gap: g.subject, by: `${at.file}:${at.line}` });
      gaps.splice(i, 1);
    }
  };
  // The 3.0 error body the spec leaves "not shown" (its gap's topic), as the reference's include gives it.
  const v3ErrorBody = spec.envelope && !spec.envelope.v3ErrorBody ? reference.envelope?.v3ErrorBody : undefined;
  const v3At = v3ErrorBody?.[0]?.source;
  if (v3At) answerAll((g) => g.topic === "v3-error-body", v3At);
  // The members of the response that continue paging, which the spec leaves "not shown" beside its `start` offset:
  // the envelope members the reference's list methods give beyond `result` and `time` (`total`, `next`), each with its
  // page's position; the spec's envelope keeps its own.
  const specEnvelope = spec.envelope;
  const paging = specEnvelope ? (reference.envelope?.members ?? []).filter((f) => f.name !== "result" && f.name !== "time" && !specEnvelope.members.some((s) => s.name === f.name)) : [];
  const pagingAt = paging[0]?.source;
  if (pagingAt) answerAll((g) => g.topic === "paging-members", pagingAt);
  // The full list of scopes the spec leaves "not shown": the reference's "Available Scopes" page.
  const scopeList = spec.scopeList ?? reference.scopeList;
  const listAt = !spec.scopeList ? reference.scopeList?.[0]?.source : undefined;
  if (listAt) answerAll((g) => /\bscopes\b/i.test(g.subject) && /\blist\b/i.test(g.subject), listAt);
  // The numeric thresholds of request rate the spec leaves "not shown" (its limits section's gap): the reference's
  // limits page. The execution-time threshold stays a gap: the page gives only the self-hosted default.
  const requestRates = spec.requestRates ?? reference.requestRates;
  const ratesAt = !spec.requestRates ? reference.requestRates?.[0]?.source : undefined;
  if (ratesAt) answerAll((g) => g.appliesTo.includes("limits") && /\brequest rate\b/i.test(g.subject) && /\bthresholds?\b/i.test(g.subject), ratesAt);
  // The events the spec leaves open: the reference's event pages name each event ("List of event codes"), and type
  // what its handler receives ("Payload of event notifications sent to handlers") only when every page gives it.
  const events = reference.eventPayloads ?? [];
  const firstEvent = events[0];
  if (firstEvent) answerAll((g) => g.appliesTo.includes("events") && /\bevent codes?\b/i.test(g.subject), firstEvent.source);
  if (firstEvent && events.every((e) => e.fields.length > 0)) answerAll((g) => g.appliesTo.includes("events") && /\bpayloads?\b/i.test(g.subject), firstEvent.source);
  // The spec's `event.bind` takes the events the pages describe: known values, not a contradiction.
  const placed = reference.placements ? withKnownPlacements(methods, reference.placements) : methods;
  const withEvents = reference.eventPayloads ? withKnownEvents(placed, reference.eventPayloads) : placed;
  const codes = new Set(spec.errors.catalogue.map((e) => e.code));
  const resources = [...spec.resources, ...reference.resources.map((r) => ({ ...r, name: renamed.get(r.name) ?? r.name, type: rename(r.type) }))];
  const model: Model = {
    ...spec,
    methods: withEvents,
    resources,
    ...(spec.envelope && (v3ErrorBody || paging.length > 0) ? { envelope: { ...spec.envelope, ...(v3ErrorBody ? { v3ErrorBody } : {}), members: [...spec.envelope.members, ...paging] } } : {}),
    errors: { ...spec.errors, catalogue: [...spec.errors.catalogue, ...reference.errors.catalogue.filter((e) => !codes.has(e.code))] },
    knownGaps: gaps,
    // The spec's platform facts stand; the members the pages describe as links are links too.
    // The reference answers what the spec leaves unsaid (its administrator error, its insufficient_scope text).
    platform: {
      ...spec.platform,
      answers: {
        notAdministrator: spec.platform.answers.notAdministrator.value ? spec.platform.answers.notAdministrator : reference.platform.answers.notAdministrator,
        insufficientScope: spec.platform.answers.insufficientScope.value ? spec.platform.answers.insufficientScope : reference.platform.answers.insufficientScope,
      },
      links: { value: [...new Set([...spec.platform.links.value, ...reference.platform.links.value])].sort(ordinal), source: spec.platform.links.source ?? reference.platform.links.source },
    },
    ...(reference.publicPages ? { publicPages: reference.publicPages } : {}),
    ...(scopeList ? { scopeList } : {}),
    ...(requestRates ? { requestRates } : {}),
    // The placements' options name the reference's resources too: renamed as its methods' are.
    ...(reference.placements ? { placements: reference.placements.map((p) => ({ ...p, options: p.options.map((f) => ({ ...f, type: rename(f.type) })) })) } : {}),
    // The payloads name the reference's resources too: renamed as its methods' are.
    ...(reference.eventPayloads ? { eventPayloads: reference.eventPayloads.map((e) => ({ ...e, fields: e.fields.map((f) => ({ ...f, type: rename(f.type) })) })) } : {}),
  };
  const described = withEvents.filter((m) => m.described);
  const fromPages = described.filter((m) => m.source.file !== spec.specFile).length;
  return { model, report: { methods: { spec: described.length - fromPages, reference: fromPages, both }, answered, gaps: { spec: spec.knownGaps.length, left: gaps.length } } };
}

/** The spec's method with what it leaves open filled from the page: each filled fact keeps the page's position. */
function fill(m: Method, page: Method, answer: (m: Method, what: (g: KnownGap) => boolean, by: string) => number, gaps: KnownGap[], answered: MergeReport["answered"]): Method {
  const by = `${page.source.file}:${page.source.line}`;
  const out: Method = { ...m };
  // The gaps on a parameter's values ("Allowed values of `VISIBLE`, …", "Allowed values and defaults of …").
  const node = (p: Field) => `param:${m.version}:${m.name}:${p.name}`;
  const ofValues = (p: Field) => gaps.filter((g) => g.appliesTo.includes(node(p)) && /\ballowed values\b/i.test(g.subject));
  const valuesOpen = (p: Field) => ofValues(p).length > 0;
  // The parameter leaves the gap's nodes; a gap with no node left goes (one that names its method too stays).
  const answerParam = (p: Field, q: Field) => {
    for (const g of ofValues(p)) {
      g.appliesTo = g.appliesTo.filter((a) => a !== node(p));
      if (g.appliesTo.length > 0) continue;
      gaps.splice(gaps.indexOf(g), 1);
      const at = q.typeSource ?? q.source;
      answered.push({ gap: `${g.subject} (${m.name})`, by: `${at.file}:${at.line}` });
    }
  };
  if ((!m.result || m.result.type.kind === "unknown") && page.result && page.result.type.kind !== "unknown") {
    out.result = { ...page.result, key: m.result?.key ?? page.result.key };
    answer(m, (g) => /\b(response|result)\b/i.test(g.subject) && !/\berrors?\b/i.test(g.subject), by);
  }
  if (m.scopes === null && page.scopes !== null) {
    out.scopes = page.scopes;
    out.scopesSource = page.scopesSource ?? page.source;
    // The page's words after its codes ("module scope from `moduleId`") go with them, where the spec has none.
    if (m.scopeNote === null && page.scopeNote !== null) out.scopeNote = page.scopeNote;
    answer(m, (g) => /^scope of the method$/i.test(g.subject), `${out.scopesSource.file}:${out.scopesSource.line}`);
  }
  // Errors the spec leaves open ("Errors of `x`: not shown", "Error codes other than `X`"): the page's list adds the
  // codes the spec lacks, each at its row. The gap that opened them goes when it is of the errors alone and the page
  // gives a code the spec does not have; a page that adds nothing answers nothing (`event.offline.clear`'s "Code
  // names of the first three": its page lists only `ACCESS_DENIED`).
  if (m.errorsOpen && !page.errorsOpen) {
    const codes = new Set(m.errors.map((e) => e.code));
    const added = page.errors.filter((e) => e.code !== null && !codes.has(e.code));
    if (added.length > 0) {
      out.errors = [...m.errors, ...added];
      const opened = m.errorsOpen.source;
      const gapAt = (g: KnownGap) => g.source.file === opened.file && g.source.line === opened.line && g.source.column === opened.column;
      // Of the errors alone: its words open with them ("Errors of …", "Error codes other than …") and it applies to no
      // parameter. A gap that asks for more ("…: scope, access and errors", "Placement point codes, `OPTIONS` contents
      // and the remaining error codes") stays, and so does the method's open list.
      const ofErrorsAlone = (g: KnownGap) => gapAt(g) && /^(?:errors?|error codes?)\b/i.test(g.subject) && !g.appliesTo.some((a) => a.startsWith("param:"));
      const first = added[0] as (typeof added)[number];
      // Still open where the spec lists an error without its code, or where its gap stays (it asks for more).
      if (answer(m, ofErrorsAlone, `${first.source.file}:${first.source.line}`) > 0) out.errorsOpen = openByUncoded(m.errors);
    }
  }
  out.params = m.params.map((p): Field => {
    const q = page.params.find((x) => x.name === p.name);
    if (!q || q.type.kind === "unknown") return p;
    // The values of a parameter the spec types but whose values it leaves "not shown" (a gap on the parameter:
    // "Allowed values and defaults of `STATUS_CODE`, …"): the page's, where it lists them for the same type.
    const pt = p.type;
    const qt = q.type;
    if (pt.kind === "primitive" && !pt.enum && qt.kind === "primitive" && qt.type === pt.type && qt.enum && !qt.openEnum && valuesOpen(p)) {
      answerParam(p, q);
      return { ...p, type: { ...pt, enum: qt.enum }, typeSource: q.typeSource ?? q.source };
    }
    if (p.type.kind !== "unknown") return p;
    // The parameter stays where the spec names it, with its words; its type keeps the page's position (D29: the
    // line lives in model.json, the emitters name the input). Values the page lists answer the parameter's part of
    // an "allowed values of …" gap; the gap stays while it asks for more (sonet_group.update's avatar-removal value).
    if (qt.kind === "primitive" && qt.enum && !qt.openEnum) answerParam(p, q);
    return { ...p, type: q.type, typeSource: q.typeSource ?? q.source };
  });
  return out;
}

/** The reference's resources whose names the spec has too, and the names they get instead. */
function renameClashes(spec: readonly Resource[], reference: readonly Resource[]): Map<string, string> {
  const taken = new Set([...spec.map((r) => r.name), ...reference.map((r) => r.name)]);
  const specNames = new Set(spec.map((r) => r.name));
  const out = new Map<string, string>();
  for (const r of reference) {
    if (!specNames.has(r.name)) continue;
    let name = `${r.name}Reference`;
    for (let i = 2; taken.has(name); i++) name = `${r.name}Reference${i}`;
    taken.add(name);
    out.set(r.name, name);
  }
  return out;
}
