import type {
  AddressingForm,
  CatalogueError,
  Envelope,
  EventPayload,
  FileRetrievalRow,
  KnownGap,
  Limit,
  Method,
  Placement,
  PlatformFacts,
  Resource,
  RequestRate,
  ScopeEntry,
  SectionAnchor,
  Source,
  StateTransition,
  Statement,
  TypeRef,
  Version,
} from "./types.js";

/**
 * The contract between a front end and the model stage (issue 27): what a front end found in its input, before the
 * model merges and resolves it, in no dialect's shape. Prose comes as statements tagged with what they are about;
 * every other fact is typed. The model imports no front end; a front end writes these (the spec's from its own
 * section-shaped reading, read/reading.ts; the reference's directly).
 */

/** What a statement of the input is about: the model's section-shaped members are built from these. */
export type StatementRole =
  | "intro"
  | "overview"
  | "states"
  | "addressing"
  | "endpoints"
  | "file-retrieval"
  | "authentication"
  | "events"
  | "errors"
  | "limits"
  | "versioning";

/** A statement of the input and what it is about. */
export interface RoleStatement {
  about: StatementRole;
  statement: Statement;
}

/** A method the input names without describing it; legacy unless `version` says (a table of the 3.0 areas). */
export interface NamedMethod {
  name: string;
  source: Source;
  area: string;
  version?: Version;
}

/** Everything a front end found, before the model stage merges and resolves it. */
export interface Fragments {
  /** The input's file, or the folder of a source of many, as positions name it. */
  file: string;
  title: { text: string; source: Source | null };
  methods: Method[];
  resources: Resource[];
  /** The errors any method may answer (the spec's system, 3.0 and authorization tables; the reference's includes). */
  catalogue: CatalogueError[];
  statements: RoleStatement[];
  gaps: KnownGap[];
  /** The input's headings and their anchors, where its sections are (`x-source`, D29). */
  anchors: SectionAnchor[];
  facts: {
    envelope: Envelope | null;
    /** Methods the input names without describing them. */
    named: NamedMethod[];
    transitions: StateTransition[];
    addressingForms: AddressingForm[];
    fileRetrieval: FileRetrievalRow[];
    limits: Limit[];
    /** Methods the input lists as callable in an application context only. */
    applicationContext: Array<{ name: string; source: Source }>;
    /** The platform's facts the front end found in its input's words; the model defaults the rest (model/platform.ts). */
    platform: FoundPlatformFacts;
    /**
     * Transport rules the input states for a whole version, which the model stage applies to each method (its
     * `httpMethods`): `v3GetWithoutParams`, "3.0 methods without parameters accept GET or POST".
     */
    transport?: { v3GetWithoutParams?: boolean };
    /**
     * The methods a statement says are of 3.0, as `line:column:name` of that statement: the model stage names a method
     * at its first mention, legacy unless its mention is here.
     */
    v3Mentions?: string[];
    /**
     * Parameters required except when another has a value ("Required for online events; ignored for
     * `event_type=offline`"), by the parameter's position and name (`line:column:name`: one sentence may give several
     * parameters): the model stage makes them optional with a
     * `required-unless` constraint (decisions.md D8).
     */
    requiredUnless?: Array<{ at: string; when: string; param: string; value: string }>;
    /** The gaps about a method's errors (their `gapKey`): the model leaves the method's error codes open. */
    errorGaps?: string[];
    /** Where the input's pages are published, when it is published documentation (Model.publicPages). */
    publicPages?: { base: string; root: string };
    /** The events the input describes with their payloads (Model.eventPayloads). */
    eventPayloads?: EventPayload[];
    /** The platform's list of scopes, where the input has one (Model.scopeList). */
    scopeList?: ScopeEntry[];
    /** The widgets' placements the input describes (Model.placements). */
    placements?: Placement[];
    /** The platform's request-rate limits per plan, where the input states them (Model.requestRates). */
    requestRates?: RequestRate[];
  };
}

/** A gap by its position and words: several gaps of one sentence ("Not shown: a; b.") share a position. */
export const gapKey = (g: KnownGap): string => `${g.source.line}:${g.source.column}:${g.subject}`;

/**
 * Every statement the input makes: the sections' in the order the model stage names methods by, then the methods'
 * notes and the resources' notes and typing rules (of the methods and resources given: the model stage's, or the
 * fragments' own).
 */
export function everyStatement(f: Fragments, methods: readonly Method[] = f.methods, resources: readonly Resource[] = f.resources): Statement[] {
  const roles = ["intro", "overview", "addressing", "file-retrieval", "authentication", "events", "errors", "limits", "versioning", "states", "endpoints"] as const;
  return [...roles.flatMap((role) => statementsAbout(f, role)), ...methods.flatMap((m) => m.notes), ...resources.flatMap((r) => [...r.notes, ...r.typingRules])];
}

/** The statements about `role`, in the input's order. */
export function statementsAbout(f: Fragments, role: StatementRole): Statement[] {
  return f.statements.filter((s) => s.about === role).map((s) => s.statement);
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
export function emptyFragments(file = ""): Fragments {
  return {
    file,
    title: { text: "", source: null },
    methods: [],
    resources: [],
    catalogue: [],
    statements: [],
    gaps: [],
    anchors: [],
    facts: { envelope: null, named: [], transitions: [], addressingForms: [], fileRetrieval: [], limits: [], applicationContext: [], platform: {} },
  };
}
