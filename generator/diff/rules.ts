/**
 * The change codes of `collab-rest-codegen diff`, with what each means and how much it matters to each audience.
 * One table: the engine (diff/index.ts) takes severities from here, the README's rule table is checked against it
 * (test/diff/diff.test.ts), and the changelogs group entries by `section`.
 *
 * Audiences:
 * - `client`: a caller of the generated client and a reader of the generated types (sends parameters, reads results);
 * - `server`: an implementer of the generated server's handlers (receives parameters, returns results).
 *
 * Severities: `breaking` (code that compiled or worked before may not now), `minor` (something new to use or to
 * handle, nothing old stops working), `patch` (wording: descriptions, notes). An audience a change does not concern
 * is absent from its `audiences`.
 */

export type Severity = "breaking" | "minor" | "patch";
export type Audience = "client" | "server";
export type Bump = "major" | "minor" | "patch" | "none";

/** Keep a Changelog's change types. */
export type ChangelogSection = "Added" | "Changed" | "Deprecated" | "Removed" | "Fixed";

export interface ChangeRule {
  meaning: string;
  client: Severity | null;
  server: Severity | null;
  section: ChangelogSection;
  example: string;
}

const rule = (client: Severity | null, server: Severity | null, section: ChangelogSection, meaning: string, example: string): ChangeRule => ({
  meaning,
  client,
  server,
  section,
  example,
});

export const CHANGE_RULES = {
  "method-added": rule("minor", "minor", "Added", "The spec describes a new method. Callers may call it; the skeleton gets a stub for it.", "a `**tasks.task.pin**.` paragraph appears"),
  "method-removed": rule("breaking", "minor", "Removed", "A described method is gone. Calls to it no longer compile; its handler is marked `@deprecated` and ignored.", "`tasks.task.unpin` is no longer in the spec"),
  "method-named-added": rule("minor", null, "Added", "The spec names a new method without describing it (an optional handler, a free-form call).", "`sale.paysystem.handler.*` is named in a list"),
  "method-named-removed": rule("breaking", null, "Removed", "A method the spec only named is gone.", "a named method leaves the list"),
  "named-to-described": rule("minor", "minor", "Added", "A method the spec only named is now described: typed parameters and result, a handler to write.", "`task.stages.get` gets a parameter table"),
  "described-to-named": rule("breaking", "minor", "Changed", "A described method is now only named: its parameters and result become `unknown`.", "the section of a method is reduced to its name"),
  "method-deprecated": rule("minor", "patch", "Deprecated", "The spec marks a method deprecated (with its replacement, where it names one).", "`Deprecated; use tasks.task.list`"),
  "method-undeprecated": rule("patch", "patch", "Changed", "A method is no longer marked deprecated, or its replacement changed.", "the deprecation sentence is removed"),
  "alias-added": rule("minor", "minor", "Added", "A method gains another name it answers to.", "`task.item.add` also answers `task.add`"),
  "alias-removed": rule("breaking", "minor", "Removed", "A method no longer answers to an alias.", "the alias sentence is removed"),
  "http-method-added": rule("minor", "minor", "Added", "A method accepts another HTTP method (a 3.0 method without parameters gains GET).", "GET becomes allowed"),
  "http-method-removed": rule("breaking", "minor", "Removed", "A method no longer accepts an HTTP method.", "GET is no longer allowed"),
  "param-added-required": rule("breaking", "minor", "Added", "A new parameter marked `*`: every call must now pass it; handlers get new input.", "`| TASK_ID* | integer | ... |` is added"),
  "param-added": rule("minor", "minor", "Added", "A new optional parameter: callers may pass it; handlers get new input to handle.", "`| ORDER | object | ... |` is added"),
  "param-removed": rule("breaking", "breaking", "Removed", "A parameter is gone: calls that pass it and handlers that read it no longer compile.", "the `FILTER` row is removed"),
  "param-became-required": rule("breaking", "patch", "Changed", "An optional parameter is now marked `*`: calls without it fail.", "`TASK_ID` becomes `TASK_ID*`"),
  "param-became-optional": rule("minor", "breaking", "Changed", "A required parameter is now optional: handlers must cope with its absence.", "`TASK_ID*` becomes `TASK_ID`"),
  "param-type-changed": rule("breaking", "breaking", "Changed", "A parameter's type changed (kind, format, union, bounds).", "`integer` becomes `string`"),
  "param-type-widened": rule("minor", "breaking", "Changed", "A parameter's type became `unknown` (the spec no longer gives it): callers may pass more, handlers must check more.", "a type cell becomes `not shown`"),
  "param-type-narrowed": rule("breaking", "minor", "Changed", "A parameter's type became known where it was `unknown`.", "`not shown` becomes `integer`"),
  "param-default-changed": rule("minor", "minor", "Changed", "A parameter's default changed: calls that omit it behave differently.", "default `20` becomes `50`"),
  "param-deprecated": rule("minor", "patch", "Deprecated", "A parameter is marked deprecated.", "`(deprecated)` is added to a parameter"),
  "enum-value-added": rule("minor", "minor", "Added", "A parameter accepts another listed value; handlers must handle it.", "`online`, `offline` gains `hybrid`"),
  "enum-value-removed": rule("breaking", "minor", "Removed", "A parameter no longer accepts a listed value.", "`hybrid` is removed from the values"),
  "constraint-added": rule("breaking", "minor", "Changed", "A new rule between parameters (at least one of, call forms, required unless).", "`At least one of A, B` is added"),
  "constraint-removed": rule("minor", "breaking", "Changed", "A rule between parameters is gone: handlers get combinations they did not before.", "`At least one of A, B` is removed"),
  "result-added": rule("minor", "breaking", "Added", "A method now returns a described result where it had none.", "a `Response` line is added"),
  "result-removed": rule("breaking", "minor", "Removed", "A method's described result is gone (now `unknown`).", "the `Response` line is removed"),
  "result-key-changed": rule("breaking", "breaking", "Changed", "The result's data moved to another key inside `result`.", "`result.task` becomes `result.item`"),
  "result-type-changed": rule("breaking", "breaking", "Changed", "The type of a result or of a field in it changed.", "`ID` goes from `integer` to `string`"),
  "result-type-widened": rule("breaking", "minor", "Changed", "A result or field type became `unknown`: readers must check what they get.", "a field's type becomes `not shown`"),
  "result-type-narrowed": rule("minor", "breaking", "Changed", "A result or field type became known where it was `unknown`: handlers must return that type.", "`not shown` becomes `string`"),
  "result-field-added": rule("minor", "breaking", "Added", "A result field that is always present: readers may use it; handlers must now return it.", "a `| PRIORITY | integer | ... |` row"),
  "result-field-added-optional": rule("minor", "minor", "Added", "A result field that may be absent: readers may use it; handlers may return it.", "a field added with `(only when set)`"),
  "result-field-removed": rule("breaking", "minor", "Removed", "A result field is gone: readers of it no longer compile.", "the `PRIORITY` row is removed"),
  "result-field-became-optional": rule("breaking", "minor", "Changed", "A result field may now be absent or null: readers must check.", "`(may be null)` is added"),
  "result-field-became-required": rule("minor", "breaking", "Changed", "A result field is now always present and not null: handlers must return it.", "`(may be null)` is removed"),
  "result-enum-value-added": rule("breaking", "minor", "Added", "A result field has another listed value: exhaustive checks in readers break.", "`STATUS` values gain `7`"),
  "result-enum-value-removed": rule("minor", "breaking", "Removed", "A result field no longer has a listed value: handlers that return it no longer compile.", "`STATUS` values lose `7`"),
  "field-deprecated": rule("minor", "patch", "Deprecated", "A result field is marked deprecated.", "`(deprecated)` is added to a field"),
  "resource-added": rule("minor", "minor", "Added", "A new resource schema (a new type export).", "a `### Comment` resource section"),
  "resource-removed": rule("breaking", "minor", "Removed", "A resource schema is gone (its type export too).", "the `### Comment` resource is removed"),
  "error-added": rule("minor", "minor", "Added", "A method lists another error.", "`400 TASK_NOT_FOUND` is added to a method"),
  "error-removed": rule("breaking", "minor", "Removed", "A method no longer lists an error: code comparing against its code no longer compiles.", "an error row is removed"),
  "error-status-changed": rule("breaking", "minor", "Changed", "An error of a method comes with another HTTP status.", "`ERROR_CORE` goes from 400 to 403"),
  "error-text-changed": rule("patch", "minor", "Changed", "An error's quoted text changed; the server answers the new text.", "`\"Task not found\"` becomes `\"No such task\"`"),
  "errors-closed": rule("patch", "patch", "Changed", "A method's errors were left open (\"not shown\") and are now complete.", "`Errors: not shown` is removed"),
  "errors-opened": rule("breaking", "patch", "Changed", "A method's errors are now left open: other codes may come.", "`Errors: not shown` is added"),
  "catalogue-error-added": rule("minor", "minor", "Added", "A new row of the system, 3.0 or authorization errors table.", "a new `ERROR_*` row"),
  "catalogue-error-removed": rule("breaking", "minor", "Removed", "A row of an errors table is gone (its code leaves the code unions).", "a row is removed"),
  "catalogue-error-changed": rule("breaking", "minor", "Changed", "A catalogue error's status changed.", "`INVALID_CREDENTIALS` goes from 401 to 403"),
  "scope-changed": rule("breaking", "minor", "Changed", "A method needs other scopes: applications must request them; the router enforces them.", "`Scope task` becomes `Scope tasks`"),
  "access-changed": rule("breaking", "minor", "Changed", "Who may call a method changed.", "`any user` becomes `administrator`"),
  "app-context-changed": rule("breaking", "minor", "Changed", "A method became (or stopped being) callable only from an application context; a webhook gets `WRONG_AUTH_TYPE`.", "`(application context only)` is added"),
  "idempotency-changed": rule("breaking", "minor", "Changed", "A 3.0 method gained or lost `Idempotency-Key` support.", "`Honours Idempotency-Key` is removed"),
  "envelope-changed": rule("breaking", "breaking", "Changed", "The response envelope, `time` or an error body (legacy or 3.0) changed.", "a `time` member is added"),
  "addressing-changed": rule("breaking", "breaking", "Changed", "A URL form changed (the client builds URLs from them, the router reads them).", "the webhook path form changes"),
  "scope-listed": rule("minor", "minor", "Added", "The platform's list of scopes has another scope (`ScopeCode` gains it).", "a `booking` row is added"),
  "scope-unlisted": rule("breaking", "minor", "Removed", "A scope left the platform's list of scopes: code naming it in `ScopeCode` no longer compiles.", "the `booking` row is removed"),
  "event-added": rule(null, "minor", "Added", "The reference describes another event: its payload is typed and `event.bind` knows its name.", "an `onCrmDealAdd` page is added"),
  "event-removed": rule(null, "breaking", "Removed", "An event is no longer described: a handler keyed by its code no longer type-checks.", "the `onCrmDealAdd` page is removed"),
  "event-payload-member-added": rule(null, "minor", "Added", "What a handler of an event receives has another member.", "a `data.FIELDS.TITLE` row is added"),
  "event-payload-changed": rule(null, "breaking", "Changed", "What a handler of an event receives lost a member, or a member's type changed.", "`data.FIELDS.ID` goes from `integer` to `string`"),
  "placement-added": rule(null, "minor", "Added", "The reference describes another placement: `PlacementOptions` types it and `placement.bind` knows its code.", "a `CRM_DEAL_DETAIL_TAB` row is added"),
  "placement-removed": rule(null, "breaking", "Removed", "A placement is no longer described: code reading its `PlacementOptions` no longer type-checks.", "the `CRM_DEAL_DETAIL_TAB` row is removed"),
  "placement-option-added": rule(null, "minor", "Added", "What a placement's `PLACEMENT_OPTIONS` holds has another key.", "an `ENTITY_ID` row is added"),
  "placement-options-changed": rule(null, "breaking", "Changed", "What a placement's `PLACEMENT_OPTIONS` holds lost a key, or a key's type changed.", "`ID` goes from `string` to `integer`"),
  "limit-changed": rule("minor", "minor", "Changed", "A row of the limits table was added, removed or changed; the client and the router follow it.", "the batch limit goes from 50 to 100"),
  "runtime-export-added": rule("minor", "minor", "Added", "A generator upgrade adds an export to the runtime a package ships (a helper, an option's type): the package's own changelog says it.", "the server package exports `createPlacementHandler`"),
  "runtime-export-removed": rule("breaking", "breaking", "Removed", "A generator upgrade removes an export of the runtime a package ships: code that imports it no longer compiles.", "the client no longer exports `RetryEvent`"),
  "runtime-export-changed": rule("breaking", "breaking", "Changed", "A generator upgrade changes an export of a package's runtime: breaking when a part of it is gone or an interface gains a required member (code that implements it stops compiling); a minor change when it only gains an overload or an optional member.", "`IdempotencyStore` gains a required `clear()` (breaking); `HandlerOptions` an optional `onError` (minor)"),
  "described-in-other-area": rule("patch", "patch", "Changed", "A method moved to another section of the spec.", "a method's section is renamed"),
  "description-changed": rule("patch", "patch", "Changed", "The words describing a method, parameter, field, result or resource changed.", "a parameter's Meaning cell is reworded"),
  "note-changed": rule("patch", "patch", "Changed", "A rule or note of the spec (a sentence or bullet) was added, removed or reworded.", "an Overview bullet is reworded"),
  "gap-changed": rule("patch", "patch", "Changed", "Something the spec leaves open (\"not shown\") was added or closed.", "a `not shown` sentence is removed"),
  "title-changed": rule("patch", "patch", "Changed", "The spec's title (the OpenAPI `info.title`) changed.", "the first heading is reworded"),
} satisfies Record<string, ChangeRule>;

export type ChangeCode = keyof typeof CHANGE_RULES;

const RANK: Record<Severity, number> = { patch: 1, minor: 2, breaking: 3 };

export function maxSeverity(a: Severity | null, b: Severity | null): Severity | null {
  if (!a) return b;
  if (!b) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

export function severityAtLeast(s: Severity, level: Severity): boolean {
  return RANK[s] >= RANK[level];
}

export function bumpOf(severities: Iterable<Severity>): Bump {
  let top: Severity | null = null;
  for (const s of severities) top = maxSeverity(top, s);
  return top === "breaking" ? "major" : top ?? "none";
}
