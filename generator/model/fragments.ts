import type {
  AddressingForm,
  CatalogueError,
  Envelope,
  EventPayload,
  FileRetrievalRow,
  KnownGap,
  Limit,
  Method,
  PlatformFacts,
  Resource,
  SectionAnchor,
  Source,
  StateTransition,
  Statement,
  TypeRef,
  Version,
} from "./types.js";

/**
 * The contract between a front end and the model stage (issue 27): what the readers found in an input, before the
 * model merges and resolves it. The model imports no front end; a front end writes these.
 */

/** Everything the readers found, before the model stage merges and resolves it. */
export interface Fragments {
  title: string;
  titleSource: Statement["source"] | null;
  intro: Statement[];
  overview: Statement[];
  envelope: Envelope | null;
  resources: Resource[];
  states: { transitions: StateTransition[]; notes: Statement[] };
  addressing: { forms: AddressingForm[]; rules: Statement[] };
  methods: Method[];
  /** Methods the input names without describing them; legacy unless `version` says (a table of the 3.0 areas). */
  named: Array<{ name: string; source: Statement["source"]; area: string; version?: Version }>;
  endpointNotes: Statement[];
  fileRetrieval: { rows: FileRetrievalRow[]; rules: Statement[] };
  authentication: { rules: Statement[]; applicationContext: Array<{ name: string; source: Statement["source"] }> };
  events: Statement[];
  errors: { catalogue: CatalogueError[]; notes: Statement[] };
  /** Statuses an older description gives catalogue codes, from any errors section: applied once all are read. */
  olderStatuses: OlderStatus[];
  limits: { table: Limit[]; rules: Statement[] };
  versioning: Statement[];
  gaps: KnownGap[];
  sections: SectionAnchor[];
  /** The platform's facts the front end found in its input's words; the model defaults the rest (model/platform.ts). */
  platform: FoundPlatformFacts;
  /**
   * Transport rules the input states for a whole version, which the model stage applies to each method (its
   * `httpMethods`): `v3GetWithoutParams`, "3.0 methods without parameters accept GET or POST".
   */
  transport?: { v3GetWithoutParams?: boolean };
  /** Where the input's pages are published, when it is published documentation (Model.publicPages). */
  publicPages?: { base: string; root: string };
  /** The events the input describes with their payloads (Model.eventPayloads). */
  eventPayloads?: EventPayload[];
}

/** The platform's facts a front end found: any it did not find is left out. */
export interface FoundPlatformFacts {
  codes?: { [K in keyof PlatformFacts["codes"]]?: PlatformFacts["codes"][K] };
  paging?: { [K in keyof PlatformFacts["paging"]]?: PlatformFacts["paging"][K] };
  idempotency?: { [K in keyof PlatformFacts["idempotency"]]?: PlatformFacts["idempotency"][K] };
  answers?: { [K in keyof PlatformFacts["answers"]]?: PlatformFacts["answers"][K] };
  links?: PlatformFacts["links"];
  builtIns?: { [K in keyof PlatformFacts["builtIns"]]?: PlatformFacts["builtIns"][K] };
}

/** A status an older description gives a catalogue code: it becomes that entry's `altStatus`, or an entry of its own. */
export interface OlderStatus {
  code: string;
  status: number;
  cause: string | null;
  /** The older description adds the code ("and adds …", "also adds:", "added in older list"), not only restates it. */
  adds: boolean;
  source: Source;
}

/** A result that names no resource yet: the model links it to the resource that says it is returned by the method. */
export const RETURNED_BY: TypeRef = { kind: "unresolved", by: "returned-by", text: "" };

/** The cause of the `WRONG_AUTH_TYPE` error an "application context only" sentence gives a method. */
export const APP_CONTEXT_CAUSE = "application context only; the call came by webhook";

/** A method with nothing said of it yet; readers and the model stage fill it in. */
export function emptyMethod(name: string, version: Version, area: string, source: Method["source"]): Method {
  return {
    name,
    version,
    area,
    described: true,
    wildcard: name.endsWith(".*"),
    aliases: [],
    scopes: null,
    scopeNote: null,
    access: null,
    applicationContextOnly: false,
    deprecated: null,
    httpMethods: ["POST"],
    idempotencyKey: false,
    description: "",
    params: [],
    constraints: [],
    result: null,
    errors: [],
    errorsOpen: null,
    notes: [],
    mentions: [],
    source,
  };
}

/** Fragments with nothing in them: where every front end starts. */
export function emptyFragments(): Fragments {
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
