import { type FoundPlatformFacts, type Fragments, everyStatement, gapKey, statementsAbout } from "../model/fragments.js";
import type { SpecReading } from "./reading.js";
import { topMembers } from "../model/members.js";
import type { CatalogueError, Field, KnownGap, Limit, Method, PlatformFact, Statement } from "../model/types.js";

/**
 * The spec dialect's words for the platform's facts (issue 27): which catalogue entry is the expired token, the
 * request-rate limit, the codes a client may retry; which Limits row is the list page size or the idempotency key's
 * length; which 3.0 method returns the OpenAPI document. Each fact keeps the source of the row that says it. These
 * words were read by the emitters before; another dialect has a phrases module of its own, and a fact its input
 * does not state is left out here and defaulted, with a gap, in model/platform.ts.
 */
export function readPlatformFacts(f: SpecReading): FoundPlatformFacts {
  const catalogue = f.errors.catalogue;
  const fact = <T>(value: T, from: { source: PlatformFact<T>["source"] }): PlatformFact<T> => ({ value, source: from.source });
  const coded = (find: (e: CatalogueError) => boolean) => {
    const e = catalogue.find(find);
    return e ? fact(e.code, e) : undefined;
  };
  // Each fact in the words of the spec and of its rewrites in other hands (test/fixtures/other-hands/): "request rate
  // exceeded", "The request rate was exceeded", "req rate exceeded"; "needs application context", "needs an app context".
  const retry = catalogue.filter((e) => e.kind === "system" && e.cause && /\bretry\b|lifted automatically|rate (?:was )?exceeded/i.test(e.cause));
  const codes: FoundPlatformFacts["codes"] = {
    ...(retry.length > 0 && retry[0] ? { retry: fact(retry.map((e) => e.code), retry[0]) } : {}),
    expiredToken: coded((e) => !!e.cause && /refresh it/i.test(e.cause)),
    operationTimeLimit: coded((e) => /operation time limit/i.test(e.text ?? "")),
    queryLimit: coded((e) => /\b(?:request|req) rate (?:was )?exceeded/i.test(e.cause ?? "")),
    wrongAuthType: coded((e) => !!e.cause && /\bneeds (?:an )?(?:application|app) context\b/i.test(e.cause)),
    unexpectedAnswer: coded((e) => /unexpected response/i.test(e.text ?? "")),
    invalidToken: coded((e) => e.kind === "auth" && /token not accepted/i.test(e.cause ?? "")),
  };
  const row = (re: RegExp): Limit | undefined => f.limits.table.find((l) => re.test(l.name));
  const page = row(/^(?:list )?page size$/i);
  const key = row(/^(?:idempotency key length|length of (?:an |the )?idempotency key)$/i);
  const retention = row(/^(?:idempotency (?:response|resp\.?) retention|retention of idempotent responses)$/i);
  const v3 = f.methods.filter((m) => m.version === "v3" && !m.wildcard);
  const doc = v3.find((m) => /OpenAPI (?:document|doc)\b/.test(m.result?.description ?? m.description));
  const scoping = /method-to-scope mapping|mapping of methods to scopes|method\s*→\s*scope mapping/i;
  const scopes = v3.find((m) => scoping.test(m.description) || scoping.test(m.result?.description ?? ""));
  // The administrator rule's answer: the ACCESS_DENIED a method lists for a caller who is not an administrator.
  const notAdmin = f.methods.find((m) => m.errors.some((e) => isNotAdministrator(e)));
  const notAdminError = notAdmin?.errors.find((e) => isNotAdministrator(e));
  // insufficient_scope's text, and the application's: "for applications the text ends with `provided by the access token`".
  const scope = catalogue.find((e) => e.kind === "system" && e.code === "insufficient_scope" && e.text);
  const ending = scope?.variants?.find((v) => v.ending)?.text;
  return {
    codes: Object.fromEntries(Object.entries(codes).filter(([, v]) => v !== undefined)),
    paging: {
      ...(page?.max != null ? { pageSize: fact(page.max, page) } : {}),
      ...(page ? { listMethods: fact([...page.appliesTo.matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? ""), page) } : {}),
    },
    idempotency: {
      ...(key ? { keyLength: fact({ min: key.min ?? null, max: key.max ?? null, text: key.value }, key), printableAscii: fact(/printable ASCII/.test(key.value), key) } : {}),
      ...(retention?.max != null ? { retentionHours: fact(retention.max, retention) } : {}),
      rules: f.limits.rules.filter((r) => /idempoten/i.test(r.text)),
    },
    builtIns: {
      ...(doc ? { documentation: fact([doc.name, ...doc.aliases], doc) } : {}),
      ...(scopes ? { scopeList: fact([scopes.name, ...scopes.aliases], scopes) } : {}),
    },
    answers: {
      ...(notAdmin && notAdminError?.code && notAdminError.text ? { notAdministrator: fact({ method: notAdmin.name, version: notAdmin.version, code: notAdminError.code, text: notAdminError.text }, notAdmin) } : {}),
      ...(scope?.text ? { insufficientScope: fact({ webhook: scope.text, application: ending ? withEnding(scope.text, ending) : scope.text }, scope) } : {}),
    },
    ...linkFields(f),
  };
}

// "caller not administrator", "caller not admin", "only portal administrators".
const isNotAdministrator = (e: Method["errors"][number]) => e.code === "ACCESS_DENIED" && !!e.text && /admin(?:istrator)?s?\b/.test(e.cause ?? "");

/**
 * A text with its ending replaced: the ending starts at the last place the text has the ending's first word
 * ("… than provided by the webhook token" with the ending "provided by the access token"). A text without that word
 * stays as it is, as before this was typed: an ending that says not where it starts replaces nothing.
 */
function withEnding(text: string, ending: string): string {
  const first = ending.split(" ")[0] ?? ending;
  const at = text.lastIndexOf(` ${first} `);
  return at >= 0 ? `${text.slice(0, at + 1)}${ending}` : text;
}

/**
 * Members whose values are links to the portal: those the file table names ("`DOWNLOAD_URL`", "`fileUrl`,
 * `file_url`"), and members described as a link, a URL or a download. Not those the table names as what to pass on
 * to another method ("`FILES`, then `disk.file.get`", "`UF_TASK_WEBDAV_FILES` (… strip it before
 * `disk.attachedObject.get`)"), a prefix ("prefix `n`"), the envelope's `result` ("URLs in `result`"), or a row that
 * says it has no link. The client keeps those of them that are strings (model/questions.ts linkFields).
 */
function linkFields(f: SpecReading): Pick<FoundPlatformFacts, "links"> {
  const names = new Set<string>();
  // What the table says is no link is none, whatever a member's description says.
  const not = new Set<string>();
  for (const row of f.fileRetrieval.rows) {
    const none = /\bno link\b/i.test(row.field);
    for (const m of row.field.matchAll(/`([A-Za-z_]\w*)`/g)) {
      // The words right around the name, bounded: a cell of many names is read in time linear in its length.
      const before = row.field.slice(Math.max(0, m.index - 12), m.index);
      const after = row.field.slice(m.index + m[0].length, m.index + m[0].length + 160);
      const passedOn = /^,\s*then\b/.test(after) || /^\s*\([^)]*\bbefore\s+(?:calling\s+)?`[\w.]+`[^)]*\)/.test(after);
      // "prefix `n`" is a value; "URLs in `result`" the member that holds the links, not one.
      (none || passedOn || /\b(?:prefix|URLs? in)\s*$/.test(before) ? not : names).add(m[1] as string);
    }
  }
  for (const x of topMembers<Field>(f.resources, f.methods)) if (/\b(link|URL|download)\b/i.test(x.description)) names.add(x.name);
  for (const n of not) names.delete(n);
  const at = f.fileRetrieval.rows[0];
  return names.size > 0 ? { links: { value: [...names].sort(), source: at?.source ?? null } } : {};
}

/**
 * The rules the model stage applies to methods, read from the fragments the spec front end made
 * (Fragments.facts): the transport rule, the 3.0 groups a statement names, "Required for …; ignored for `p=v`",
 * and the gaps about a method's errors.
 */
export function readRuleFacts(f: Fragments): void {
  const facts = f.facts;
  facts.transport = readTransport(statementsAbout(f, "addressing"));
  const v3Mentions = readV3Mentions(everyStatement(f));
  if (v3Mentions.length > 0) facts.v3Mentions = v3Mentions;
  const requiredUnless = readRequiredUnless(f.methods);
  if (requiredUnless.length > 0) facts.requiredUnless = requiredUnless;
  const errorGaps = f.gaps.filter((g) => /\b(?:errors?|error codes?|code names?)\b/i.test(g.subject)).map(gapKey);
  if (errorGaps.length > 0) facts.errorGaps = errorGaps;
}

/**
 * "In 3.0 methods without parameters accept GET or POST." among the addressing rules, and in other hands' words:
 * "3.0: methods w/o params accept GET or POST", "HTTP verb for parameterless 3.0 methods. GET or POST", "In 3.0,
 * methods without parameters accept both GET and POST".
 */
function readTransport(rules: readonly Statement[]): NonNullable<Fragments["facts"]["transport"]> {
  // The verbs in the same clause as the 3.0 methods without parameters, with no "not" or "only" between: "legacy
  // methods accept GET or POST" after a semicolon, "(legacy: GET or POST)", "do not accept GET or POST" say no such
  // thing. Bounded gaps: linear in the rule's length.
  const rule = /(?:\b3\.0\b[^.;()]{0,12}?\bmethods (?:without parameters|w\/o params)|\bparameterless 3\.0 methods)\b([^;()]{0,40}?)\bGET (?:or|and) POST\b/i;
  const says = (text: string) => {
    const m = rule.exec(text);
    return m !== null && !/\b(?:not|only|never)\b/i.test(m[1] ?? "");
  };
  return { v3GetWithoutParams: rules.some((r) => says(r.text)) };
}

/**
 * The method groups a statement says are of 3.0: "Areas with 3.0 methods: … (group `humanresources.*` …; the
 * `department.*` methods stay legacy)". Each as `line:column:name` of the statement that names it, since the model
 * stage names a method at its first mention (Fragments.facts.v3Mentions).
 */
function readV3Mentions(statements: readonly Statement[]): string[] {
  const out: string[] = [];
  for (const s of statements) {
    if (!/^Areas with 3\.0 methods\b/.test(s.text)) continue;
    const legacy = new Set([...s.text.matchAll(/`([^`]+)` methods stay legacy/g)].map((m) => m[1]));
    for (const ref of s.refs) if (!legacy.has(ref)) out.push(`${s.source.line}:${s.source.column}:${ref}`);
  }
  return out;
}

/** "Required for online events; ignored for `event_type=offline`" in a parameter's words (Fragments.facts.requiredUnless). */
function readRequiredUnless(methods: readonly Method[]): NonNullable<Fragments["facts"]["requiredUnless"]> {
  const out: NonNullable<Fragments["facts"]["requiredUnless"]> = [];
  for (const m of methods) {
    for (const p of m.params) {
      const rule = /\bRequired for ([^;.]+);\s*ignored for `([A-Za-z_]\w*)\s*=\s*([\w-]+)`/i.exec(p.description);
      if (rule) out.push({ at: `${p.source.line}:${p.source.column}:${p.name}`, when: rule[1] ?? "", param: rule[2] ?? "", value: rule[3] ?? "" });
    }
  }
  return out;
}

/**
 * The gaps an emitter or the merge acts on, by the spec's words for them (KnownGap.topic; decisions.md D30: a row
 * each). `doc` is the row of spec-source/README.md's table of platform facts.
 */
export const GAP_TOPICS: ReadonlyArray<{ id: NonNullable<KnownGap["topic"]>; match: RegExp; doc: { example: string; fact: string } }> = [
  { id: "v3-error-body", match: /\bbody (?:shape )?of 3\.0 error/i, doc: { example: "Body shape of 3.0 error responses: not shown.", fact: "the types' `V3ErrorBody`" } },
  {
    id: "paging-members",
    // Both words, in either order: two lookaheads from the start, each one scan of the subject.
    match: /^(?=[^]*\bpaging\b)(?=[^]*\bmembers?\b)/i,
    doc: { example: "Members of the response that continue paging: not shown.", fact: "the envelope's paging members a merged model takes from the reference" },
  },
];

export function markGapTopics(gaps: KnownGap[]): void {
  for (const g of gaps) {
    const topic = GAP_TOPICS.find((t) => t.match.test(g.subject));
    if (topic) g.topic = topic.id;
  }
}
