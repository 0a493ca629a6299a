/**
 * The intermediate model: plain serializable data, written to `model.json`.
 * Every node that comes from the spec carries `source`, the position of the text it was read from.
 */

export type { Source } from "../util/position.js";
import type { Source } from "../util/position.js";

export type Version = "legacy" | "v3";

/** A sentence or list item kept verbatim: a rule, a note or a description that has no finer structure. */
export interface Statement {
  text: string;
  /** Names written in backticks inside the statement, in order. */
  refs: string[];
  source: Source;
}

/** Something the spec says it leaves open ("not shown"), or something it omits that a reader expected. */
export interface KnownGap {
  /** What is missing, in the spec's own words where it has them. */
  subject: string;
  /** `not-shown`: the spec says so; `not-stated`: the spec is silent where the dialect expects a statement. */
  kind: "not-shown" | "not-stated";
  /**
   * What the gap is about, where an emitter or the merge acts on it (read/phrases.ts GAP_TOPICS): `v3-error-body`,
   * the body of 3.0 error responses (version 3); `paging-members`, the response's members that continue paging.
   */
  topic?: "v3-error-body" | "paging-members";
  /** Model nodes the gap applies to, as `method:<version>:<name>`, `resource:<Name>`, `param:<version>:<method>:<param>`. */
  appliesTo: string[];
  source: Source;
}

export type Primitive = "integer" | "number" | "string" | "boolean";

export type TypeRef =
  | {
      kind: "primitive";
      type: Primitive;
      /** `date-time` (ISO 8601), `byte` (Base64), `uri`, `decimal` (digits in a string), `yn` (a `Y`/`N` flag). */
      format?: "date-time" | "byte" | "uri" | "decimal" | "yn";
      enum?: Array<string | number | boolean>;
      /** The enum lists the known values of an open set (the events of `event.bind`: a portal may have more). */
      openEnum?: boolean;
      pattern?: string;
      minimum?: number;
      maximum?: number;
    }
  | {
      kind: "object";
      members: Field[];
      /** The type of values under keys other than the members (a map such as "object keyed by user id"). */
      additional?: TypeRef;
      keyDescription?: string;
      /** The key forms the spec names for a map (`user<id>`, `group<id>`). */
      keyNames?: string[];
      /**
       * The rows the input gives as forms of keys, not members (`UF_...`, `\<userId\>`, `upload{id}`), each with its
       * value's type, words and position (reference/keys.ts); `keyNames`, `keyDescription` and `additional` say them.
       */
      keys?: Field[];
      /** The spec lists some members only ("for example", "Full field list: not shown"): others may come. */
      open?: boolean;
      /** A resource whose fields this object has too (3.0 task = Task plus `archiveLink`). */
      extends?: string;
      /** The schema name the model stage gives this shape when it lifts it out as a resource of its own. */
      name?: string;
    }
  | { kind: "array"; items: TypeRef }
  | { kind: "union"; options: TypeRef[] }
  | { kind: "ref"; resource: string }
  | Unresolved
  | { kind: "null" }
  /** The spec gives no type, or says "not shown". */
  | { kind: "unknown"; note?: string };

/**
 * A reference a front end reads but cannot resolve alone (issue 27): the model stage resolves it against the whole
 * input, and `check/` rejects any that survives, so no emitter meets one.
 *
 * - `title`: a resource named by its title ("(see Attached vote)"); `with`: members the result has beside it
 *   ("includes `archiveLink`"), making an object that extends the resource.
 * - `returned-by`: the resource whose own text says it is returned by this method ("the user object"); `member`:
 *   the one member to give the result when no resource says so (`{ID}`).
 * - `see`: a resource whose fields are the object parameter of the method named in `text`.
 */
export interface Unresolved {
  kind: "unresolved";
  by: "title" | "returned-by" | "see";
  text: string;
  member?: string;
  with?: Field[];
}

export interface DefaultValue {
  /** The literal when the spec writes one (`1`, `Y`, `online`), else absent. */
  value?: string | number | boolean;
  /** The spec's words for a default that is not a literal ("the current user"). */
  text: string;
}

export interface Field {
  name: string;
  type: TypeRef;
  /**
   * Parameters: marked `*`. Resource fields: always present, i.e. the spec neither marks the field as sometimes
   * absent nor says that the set of fields depends on the request (`select`, the scope).
   */
  required: boolean;
  nullable: boolean;
  /** The field may be missing ("only when they occurred", "present in most responses"). */
  optional?: boolean;
  /** The field may come as an empty object instead of its type. */
  mayBeEmptyObject?: boolean;
  /** The field may come as an empty array instead of its type ("or empty array when none"). */
  mayBeEmptyArray?: boolean;
  description: string;
  default?: DefaultValue;
  deprecated?: { text: string };
  /** Group of a grouped resource table (Task). */
  group?: string;
  /** Allowed file extensions (`wav`, `mp3`). */
  fileExtensions?: string[];
  /** Prefixes a key of this object may carry and what each means (`FILTER`: `>=`, `!@` NOT IN, …). */
  keyPrefixes?: Array<{ prefix: string; meaning: string }>;
  /**
   * Values the spec names for the field, or for its items when it is an array (`*` and the user fields a `select`
   * may name): known values of an open set, not an enum, and no type of their own.
   */
  knownValues?: string[];
  /** URL schemes the value must use (`http`, `https`). */
  schemes?: string[];
  /** The name a `select` gives for this field where it differs from the field's (`TARIF` for `TARIFF`). */
  selectAs?: string;
  /** Where the field is available only on some plans: the method and the code that tell (`feature.get`, `rest_auth_connector`). */
  feature?: { method: string; code: string };
  /** The member applies only for these values of its context (`minTimeout` for `ONOFFLINEEVENT`). */
  appliesWhen?: string[];
  source: Source;
  /**
   * Where the type was read, when another input than the field's says it (decisions.md D24, D29): in a model of the
   * spec and the platform's reference, a spec parameter left "not shown" and typed from the page.
   */
  typeSource?: Source;
}

/**
 * An error's trigger: a parameter of the method that is missing, of the wrong type or of a value not allowed, or an
 * "at least one of" set of which none is given (`parameter` is then the set's names joined by ", "); `words` are the
 * spec's.
 */
export interface ErrorTrigger {
  parameter: string;
  failure: "missing" | "type" | "value" | "none-of";
  words: string;
}

export type Constraint =
  | { kind: "at-least-one"; params: string[]; text: string; source: Source }
  | { kind: "call-forms"; forms: string[][]; text: string; source: Source }
  | { kind: "keep-order"; params: string[]; text: string; source: Source }
  /** "Required for online events; ignored for `event_type=offline`": required unless `unless.param` is `unless.value`. */
  | { kind: "required-unless"; params: string[]; unless: { param: string; value: string }; text: string; source: Source }
  /** "Required only for webhooks", "Required if `USE_PLACEMENT = 'Y'`": required under a condition in words, not always. */
  | { kind: "required-when"; params: string[]; condition: string; text: string; source: Source };

export interface ResultSpec {
  type: TypeRef;
  /** Where the data sits inside `result`: `task` for `result.task`, null when `result` is the data itself. */
  key: string | null;
  description: string;
  /** What the spec says of empty results ("empty array when none"). */
  empty: string[];
  /** The value under `key` may come as an empty array instead of its type. */
  mayBeEmptyArray?: boolean;
  source: Source;
}

export interface MethodError {
  /** The single HTTP status, when the spec (or the catalogue, see statusFrom) fixes one. */
  status: number | null;
  /** Every status the spec offers for this error ("HTTP 400 or 403", "Statuses 400 and 403"). */
  statuses: number[];
  /** A status class such as `4xx`. */
  statusClass: string | null;
  /** Where `status` came from: the method's own text, or the error catalogue for a code the method names without a status. */
  statusFrom: "method" | "catalogue" | null;
  /** The code as written; `""` for an empty code; null when the spec names none. */
  code: string | null;
  /** The exact text, where the spec quotes one. */
  text: string | null;
  cause: string | null;
  /** The failure of a parameter this error answers, where the spec says so (read/triggers.ts). */
  trigger?: ErrorTrigger;
  source: Source;
}

export interface Access {
  /** `any`, `administrator`, `crm-administrator`, `participant`, `read-access`, `document-editor`, `group-admin-or-owner`. */
  who: string;
  text: string;
}

export interface Method {
  name: string;
  version: Version;
  /** Heading of the section that describes (or names) it. */
  area: string;
  described: boolean;
  /** The name ends in `.*` or is a family such as `sale.paysystem.handler.*`. */
  wildcard: boolean;
  aliases: string[];
  /** Scope names; null when the spec names none. `base` is written as ["base"]. */
  scopes: string[] | null;
  /**
   * Where the scopes were read, where that is a line of its own (decisions.md D29): the reference page's `> Scope:`
   * line; in a model of the spec and the reference (D24), the page's line for a spec method whose scope the spec does
   * not name. The spec's scope sentence lies in the method's section: no position of its own.
   */
  scopesSource?: Source;
  scopeNote: string | null;
  access: Access | null;
  applicationContextOnly: boolean;
  deprecated: { replacement: string | null; text: string } | null;
  httpMethods: Array<"GET" | "POST">;
  idempotencyKey: boolean;
  description: string;
  params: Field[];
  constraints: Constraint[];
  result: ResultSpec | null;
  errors: MethodError[];
  /**
   * The spec leaves the method's errors open: a known gap ("Errors of `x`: not shown", "Error codes other than ...:
   * not shown"), an error listed without its code, or a method only named. Null when `errors` is all the spec says.
   */
  errorsOpen: { reason: string; source: Source } | null;
  notes: Statement[];
  /** Where an undescribed method is named. */
  mentions: Source[];
  source: Source;
  /**
   * Whom the result describes, where the spec says (a sentence form of read/forms.ts): `caller`, the user whose
   * credentials made the call ("Returns the user whose token was used"). The mock answers it so.
   */
  resultSubject?: "caller";
}

export interface Resource {
  /** Schema name, PascalCase. */
  name: string;
  title: string;
  description: string;
  /** Methods that return it, as `name` or `name (3.0)`. */
  returnedBy: string[];
  /** Where the spec says which method returns it and where in `result` (spec-source/README.md#links). */
  links: ResourceLink[];
  type: TypeRef;
  typingRules: Statement[];
  notes: Statement[];
  /** The scopes the set of returned fields depends on (`user`, `user_brief`, `user_basic`). */
  fieldScopes?: string[];
  /** The member that holds the resource where it appears, as the title names it (`attach`). */
  memberName?: string;
  /**
   * A front end's unresolved link (issue 27): the verb of "the result of adding an external line is …" (`add`); the
   * model stage finds the method of that verb whose name has the resource's title, and removes this. Never in a model.
   */
  returnedByVerb?: string;
  /**
   * A front end's unresolved link (issue 27): the resource's fields are the parameters of the method that has them
   * all ("CODE, HANDLER, NAME, DESCRIPTION; see Endpoints"); the model stage types them from it and removes this.
   */
  fieldsAreParams?: true;
  source: Source;
}

/**
 * One resource-to-method link: "(result of `m`)", "(`m` item)", "Returned by `a`, `b` (key `task` inside `result`; in
 * 3.0 `a` uses key `item`)".
 */
export interface ResourceLink {
  method: string;
  /** The API version the link is for; null when the sentence does not say. */
  version: Version | null;
  /** The member of `result` that holds the resource; null when it is `result` itself. */
  key: string | null;
  /** The result is a list of the resource ("`placement.get` item"). */
  many: boolean;
  source: Source;
}

export interface CatalogueError {
  kind: "system" | "v3" | "auth";
  status: number | null;
  altStatus: number | null;
  code: string;
  text: string | null;
  cause: string | null;
  /** Other texts of the error and who gets them ("text for webhooks: `…`"); `ending`: only the text's end differs. */
  variants?: Array<{ when: string; text: string; ending: boolean }>;
  source: Source;
}

export interface AddressingForm {
  version: Version;
  auth: "webhook" | "application";
  httpMethod: string | null;
  path: string;
  notes: string[];
  source: Source;
}

export interface StateTransition {
  subject: string;
  trigger: string;
  condition: string;
  next: string;
  also: string;
  /** What the row does, read from its words by the front end: the mock acts on this, never on the words (issue 27). */
  effect: StateEffect;
  source: Source;
}

/** A literal value of a States row (`N`, `false`, `1`). */
export type StateLiteral = string | number | boolean;

/**
 * The behaviour a States row describes, typed (model version 3). Method and parameter names are as the row writes
 * them; the mock finds them among the model's methods. `unread`: no reading of the front end recognises the row.
 */
export type StateEffect =
  /** The router's own record of an idempotency key (the server keeps it, not a method). */
  | { kind: "idempotency" }
  /** Binding the same handler again fails with `code`; `method` is the binding method. */
  | { kind: "unique-binding"; method: string | null; code: string }
  /** A change of the application's installation (removed, updated), which no call makes. */
  | { kind: "installation" }
  /** `param` = `value` turns the link held in `field` on (`on`) or off; `byDefault`: the value the call defaults to. */
  | { kind: "link"; method: string; param: string; value: StateLiteral; on: boolean; byDefault: boolean; field: string }
  /** The call sets `field` to `value`, in the result's member `member` (null: the result's own record). */
  | { kind: "set"; method: string; member: string | null; field: string; value: StateLiteral }
  /** The call stores a record in `collection`; `crm`: the row also says it creates or assigns CRM records. */
  | { kind: "store"; method: string; collection: string; crm: boolean }
  /**
   * The call needs a record in `collection`, or fails with `error` (the method's error for it, by its code and quoted
   * text: a method may list two errors of one code); `replaces`: a repeat
   * replaces what the earlier call left; `choice`: which option of a two-option result answers, by the parameters given.
   */
  | {
      kind: "require";
      method: string;
      collection: string;
      error: { code: string; text: string } | null;
      replaces: boolean;
      choice: { given: string; absent: string[]; member: string } | null;
    }
  /** The offline queue: `param` = `value` reserves a batch under the id parameter `id`. */
  | { kind: "offline-reserve"; method: string; param: string; value: StateLiteral; id: string | null }
  /** The offline queue: the call removes the reserved records. */
  | { kind: "offline-clear"; method: string; id: string | null }
  /** The offline queue: the call marks the reserved records failed. */
  | { kind: "offline-error"; method: string; id: string | null }
  /**
   * What the call registers stays hidden until the installation finishes, from the method `list` that lists it;
   * `shownAfter`: the row says it shows then.
   */
  | { kind: "hidden-until-installed"; method: string; list: string | null; shownAfter: boolean }
  | { kind: "unread"; method: string | null };

export interface Limit {
  name: string;
  value: string;
  appliesTo: string;
  /** Parsed numbers where the value is a range or a number ("1 to 255", "24 hours"). */
  min?: number;
  max?: number;
  defaultValue?: number;
  source: Source;
}

export interface FileRetrievalRow {
  where: string;
  methods: string[];
  field: string;
  source: Source;
}

export interface Envelope {
  members: Field[];
  time: Field[];
  legacyErrorBody: Field[];
  /**
   * The members of the 3.0 error body, where an input states them (the platform's reference: the table of its
   * `_includes/error-info-v3.md`); absent where none does (the spec leaves it "not shown", topic `v3-error-body`).
   */
  v3ErrorBody?: Field[];
  notes: Statement[];
  source: Source;
}

/**
 * An event the platform sends to a bound handler, and what the handler receives (the reference's event pages,
 * "What the Handler Receives"): `event`, `data`, `ts`, `auth` and their members.
 */
export interface EventPayload {
  /** The event as its page names it (`onCrmDealAdd`, `CATALOG.PRODUCT.ON.ADD`): what `event.bind` takes, in any case. */
  name: string;
  /** The code the handler receives in `event` (`ONCRMDEALADD`). */
  code: string;
  description: string;
  scopes: string[] | null;
  /** Where the scopes were read: the page's `> Scope:` line. */
  scopesSource?: Source;
  /** The members of the request the handler receives. */
  fields: Field[];
  source: Source;
}

/**
 * A scope of the platform's list of scopes (the reference's "Available Scopes" page): the code a method's `Scope:`
 * names, an application asks for at installation and a webhook is given.
 */
export interface ScopeEntry {
  /** `crm`, `user_brief`, `sonet_group`. */
  code: string;
  /** What it opens, in the list's words (`CRM`; `Users (minimal)` for a version of `user`). */
  description: string;
  /** The platform's tool it belongs to, as the list names it; "" where it names none. */
  tool: string;
  /** The list says it is deprecated ("should not be used"). */
  deprecated?: true;
  source: Source;
}

/**
 * A widget's placement, as the platform's reference describes it (`api-reference/widgets/…`): where an application's
 * handler page opens, the codes it is bound under with `placement.bind`, and what the handler receives.
 */
export interface Placement {
  /**
   * The codes the page names (`CRM_DEAL_DETAIL_TAB`). A code with `XXX` is a family whose `XXX` the platform fills
   * (`CRM_DYNAMIC_XXX_DETAIL_TAB`: a custom object type's number), as the page writes it.
   */
  codes: string[];
  /** The page's title. */
  title: string;
  description: string;
  scopes: string[] | null;
  /** The position of the page's `Scope:` line. */
  scopesSource?: Source;
  /** The keys of `PLACEMENT_OPTIONS` (a JSON string the handler parses), from the page's table; empty where it has none. */
  options: Field[];
  source: Source;
}

/**
 * A plan's request-rate limit, as the platform's reference states it (`limits.md`, "Request Rate Limits"): a leaky
 * bucket per portal that each request fills by one and that drains by `perSecond` a second; past `burst` the next
 * request is refused with `QUERY_LIMIT_EXCEEDED`.
 */
export interface RequestRate {
  /** The plan as the table names it (`Enterprise`, `Others`). */
  plan: string;
  /** Requests the counter drains a second (the page's `Y`). */
  perSecond: number;
  /** Requests the counter holds before it blocks (the page's `X`). */
  burst: number;
  source: Source;
}

/** A heading of the spec and its anchor (GitHub's slug of its text): positions that do not move when lines do. */
export interface SectionAnchor {
  title: string;
  depth: number;
  anchor: string;
  source: Source;
}

/** Choices of the generator that the model records as facts (each with a documented default). */
export interface ModelOptions {
  /** Legacy methods take GET with query parameters (decisions.md D32; default true, the platform's reference). */
  legacyGet?: boolean;
}

/** The platform's page on calling the API, cited where the model takes a default from it (D4). */
export const CALLING_THE_API = "https://apidocs.bitrix24.com/settings/how-to-call-rest-api/general-principles.html";

/**
 * A fact of the platform that the emitters and the runtimes act on, and where the input states it. `source: null` is
 * the documented default the model put in where no front end found the fact; a `not-stated` known gap says so.
 */
export interface PlatformFact<T> {
  value: T;
  source: Source | null;
}

/**
 * The platform's facts that the generated code acts on, typed (issue 27): a front end reads them in its own words
 * (the spec's are read/phrases.ts), and the model puts in the documented default for any it did not find
 * (model/platform.ts). Emitters read these, never the words they came from.
 */
export interface PlatformFacts {
  codes: {
    /** System codes whose failure the client may retry: the catalogue's "retry", "lifted automatically", "rate exceeded". */
    retry: PlatformFact<string[]>;
    /** The access token expired: the client refreshes it. */
    expiredToken: PlatformFact<string>;
    /** The method's execution-time limit: the client waits for `time.operating_reset_at`. */
    operationTimeLimit: PlatformFact<string>;
    /** The request-rate limit. */
    queryLimit: PlatformFact<string>;
    /** A webhook called a method that needs an application context. */
    wrongAuthType: PlatformFact<string>;
    /** The server answered something unexpected. */
    unexpectedAnswer: PlatformFact<string>;
    /** The authorization failure of a token that is not accepted. */
    invalidToken: PlatformFact<string>;
  };
  paging: {
    /** Records in one page of a legacy list method. */
    pageSize: PlatformFact<number>;
    /** The methods the input names as list methods (others are list methods by their `start` parameter). */
    listMethods: PlatformFact<string[]>;
  };
  idempotency: {
    /** The `Idempotency-Key` length range as the input states it (`null` where a bound is not given), and its words. */
    keyLength: PlatformFact<{ min: number | null; max: number | null; text: string }>;
    /** The key is printable ASCII (space to tilde). */
    printableAscii: PlatformFact<boolean>;
    /** How long the platform keeps a response for a key. */
    retentionHours: PlatformFact<number>;
    /** The input's rules on idempotency, as written. */
    rules: Statement[];
  };
  /** The 3.0 methods the router answers itself: the OpenAPI document and the method-to-scope mapping (with their aliases). */
  builtIns: {
    documentation: PlatformFact<string[]>;
    scopeList: PlatformFact<string[]>;
  };
  /** What the server answers, where the input quotes it (version 3). */
  answers: {
    /**
     * A caller who is not an administrator calls a method that needs one: the error a method lists for it, by its
     * code and quoted text (a method may list two errors of one code).
     */
    notAdministrator: PlatformFact<{ method: string; version: Version; code: string; text: string } | null>;
    /** The token lacks the method's scope: the text for a webhook's token and for an application's. */
    insufficientScope: PlatformFact<{ webhook: string; application: string } | null>;
  };
  /** Members whose relative values are links to the portal (the client makes them absolute), by name (version 3). */
  links: PlatformFact<string[]>;
}

/**
 * The shape of `model.json` (decisions.md D28): 2 from the model that carries `platform` on; 3 from the one whose
 * States rows carry their typed `effect`, whose platform facts add `answers` and `links`, and whose gaps a `topic`.
 */
export const MODEL_VERSION = 3;

export interface Model {
  /** The shape of this model (decisions.md D28); absent in `model.json` files written before version 2. */
  modelVersion: number;
  specFile: string;
  /** Every heading in document order, with its anchor. */
  sections: SectionAnchor[];
  title: string;
  intro: Statement[];
  overview: Statement[];
  envelope: Envelope | null;
  resources: Resource[];
  states: { transitions: StateTransition[]; notes: Statement[] };
  addressing: { forms: AddressingForm[]; rules: Statement[] };
  methods: Method[];
  fileRetrieval: { rules: Statement[]; rows: FileRetrievalRow[] };
  authentication: { rules: Statement[] };
  events: Statement[];
  errors: { catalogue: CatalogueError[]; notes: Statement[] };
  limits: { table: Limit[]; rules: Statement[] };
  versioning: Statement[];
  knownGaps: KnownGap[];
  /** The platform's facts the generated code acts on, each with its source or as the documented default. */
  platform: PlatformFacts;
  /**
   * The input is published documentation: each page is at `base` + its path below `root` (the input's folder, as
   * the positions name it), `.md` as `.html` (the `@see` of its declarations, decisions.md D20). Absent for the
   * spec, whose copy ships in the types package.
   */
  publicPages?: { base: string; root: string };
  /** The events the input describes with their payloads (the reference's event pages); absent for the spec. */
  eventPayloads?: EventPayload[];
  /**
   * The platform's scopes, where an input lists them (the reference's "Available Scopes" page); absent where none
   * does (the spec leaves "Full list of scopes" "not shown").
   */
  scopeList?: ScopeEntry[];
  /** The widgets' placements the input describes (the reference's widget pages); absent for the spec. */
  placements?: Placement[];
  /**
   * The platform's request-rate limits per plan, where an input states them (the reference's `limits.md`); absent
   * where none does (the spec leaves "Numeric thresholds of request rate" "not shown").
   */
  requestRates?: RequestRate[];
  /**
   * What the front end skipped on purpose under methods, resources and error tables, by kind: backticked names given
   * as examples, code blocks, HTML blocks. Everything else there is a fact or a warning (spec-source/README.md).
   */
  readerSkips?: { example: number; "code-block": number; "html-block": number };
}
