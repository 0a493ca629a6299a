import type { Fragments, FoundPlatformFacts, NamedMethod, OlderStatus, RoleStatement, StatementRole } from "../model/fragments.js";
import type { KnownGap, Model, Source, Statement } from "../model/types.js";

/**
 * What the spec front end reads, in the shape of the spec's own sections (spec-source/README.md): the readers fill
 * it section by section, and `fragmentsOf` turns it into the model's dialect-neutral fragments (issue 27). Another
 * dialect keeps a reading of its own, or none.
 */
export interface SpecReading
  extends Pick<Model, "title" | "sections" | "intro" | "overview" | "envelope" | "resources" | "states" | "addressing" | "methods" | "fileRetrieval" | "events" | "errors" | "limits" | "versioning"> {
  /** Members the model does not have, or has in another shape. */
  titleSource: Source | null;
  named: NamedMethod[];
  endpointNotes: Statement[];
  authentication: { rules: Statement[]; applicationContext: Array<{ name: string; source: Source }> };
  /** Statuses an older description gives catalogue codes, from any errors section: applied once all are read. */
  olderStatuses: OlderStatus[];
  gaps: KnownGap[];
  platform: FoundPlatformFacts;
}

export function emptyReading(): SpecReading {
  return {
    title: "",
    titleSource: null,
    intro: [],
    overview: [],
    envelope: null,
    resources: [],
    states: { transitions: [], notes: [] },
    addressing: { forms: [], rules: [] },
    methods: [],
    named: [],
    endpointNotes: [],
    fileRetrieval: { rows: [], rules: [] },
    authentication: { rules: [], applicationContext: [] },
    events: [],
    errors: { catalogue: [], notes: [] },
    olderStatuses: [],
    limits: { table: [], rules: [] },
    versioning: [],
    gaps: [],
    sections: [],
    platform: {},
  };
}

/** The reading as the model's fragments: each section's statements tagged with what they are about, the rest typed. */
export function fragmentsOf(file: string, r: SpecReading): Fragments {
  const about = (role: StatementRole, list: Statement[]): RoleStatement[] => list.map((statement) => ({ about: role, statement }));
  return {
    file,
    title: { text: r.title, source: r.titleSource },
    methods: r.methods,
    resources: r.resources,
    catalogue: r.errors.catalogue,
    statements: [
      ...about("intro", r.intro),
      ...about("overview", r.overview),
      ...about("states", r.states.notes),
      ...about("addressing", r.addressing.rules),
      ...about("endpoints", r.endpointNotes),
      ...about("file-retrieval", r.fileRetrieval.rules),
      ...about("authentication", r.authentication.rules),
      ...about("events", r.events),
      ...about("errors", r.errors.notes),
      ...about("limits", r.limits.rules),
      ...about("versioning", r.versioning),
    ],
    gaps: r.gaps,
    anchors: r.sections,
    facts: {
      envelope: r.envelope,
      named: r.named,
      transitions: r.states.transitions,
      addressingForms: r.addressing.forms,
      fileRetrieval: r.fileRetrieval.rows,
      limits: r.limits.table,
      applicationContext: r.authentication.applicationContext,
      platform: r.platform,
    },
  };
}
