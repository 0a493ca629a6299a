import GithubSlugger from "github-slugger";
import type { Diagnostic } from "../diagnostics/catalogue.js";
import type { Fragments } from "../model/fragments.js";
import { type SpecReading, emptyReading, fragmentsOf } from "./reading.js";
import type { SectionAnchor } from "../model/types.js";
import type { RootContent } from "mdast";
import { MAX_NESTING, type Section, type SpecFile, parseMarkdown, sectionize, spanOf, textOf } from "../parse/markdown.js";
import { type ReadContext, report, sourceOf } from "./inline.js";
import { methodInHeading, readMethodHeadingSection, readMethodSection } from "./methods.js";
import { readOtherResources, readResourceSection } from "./resources.js";
import { readEnvelope } from "./envelope.js";
import { readAddressing, readFileRetrieval, readLimits, readStatements } from "./sections.js";
import { applyOlderStatuses, readAuthentication, readErrorsSection } from "./error-sections.js";
import { readStates } from "./states.js";
import { pushAll } from "../util/arrays.js";
import type { LedgerScope } from "./ledger.js";
import { readFieldForms } from "./field-forms.js";
import { errorTrigger } from "./triggers.js";
import { markGapTopics, readPlatformFacts, readRuleFacts } from "./phrases.js";
import { readStateEffects } from "./state-effects.js";

export type { Fragments } from "../model/fragments.js";
export type { SpecReading } from "./reading.js";

type SectionKind =
  | "overview"
  | "resources"
  | "envelope"
  | "resource"
  | "other-resources"
  | "states"
  | "endpoints"
  | "addressing"
  | "methods-v3"
  | "methods"
  | "file-retrieval"
  | "authentication"
  | "events"
  | "errors"
  | "limits"
  | "versioning"
  | "unknown";

/**
 * The words of a top-level section's title and the kind they name, one row each (a phrases table: a new way of
 * titling a section is a row). Titles are compared in lower case, without a leading number (`7.`, `7.2`).
 */
const TOP_SECTIONS: ReadonlyArray<readonly [RegExp, SectionKind]> = [
  [/^(?:what the service does|overview|introduction|about|tl;dr)/, "overview"],
  [/^(?:resources|data model|data structures|objects|types)\b/, "resources"],
  [/^(?:responses?|response envelope|envelope)\b/, "envelope"],
  [/^(?:states|lifecycles?)\b/, "states"],
  [/^(?:endpoints|methods|method reference|api reference|reference)\b/, "endpoints"],
  [/^(?:making requests|addressing|calling the api)\b/, "addressing"],
  [/^auth(?:entication|orization)?\b/, "authentication"],
  [/^events\b/, "events"],
  [/^(?:errors|error codes|error handling)\b/, "errors"],
  [/^limits\b/, "limits"],
  [/^(?:versioning|versions)\b/, "versioning"],
];

/** The kinds whose subsections are more of the same (`9.1 System errors` under `9. Errors`; a group of methods in an area). */
const FLAT: ReadonlySet<SectionKind> = new Set(["overview", "states", "addressing", "authentication", "events", "errors", "limits", "versioning", "file-retrieval", "methods", "methods-v3"]);

/** A heading's title as the kind tables compare it: lower case, without a leading section number. */
function titleWords(title: string): string {
  return title.toLowerCase().replace(/^\d+(?:\.\d+)*\.?\s+/, "").trim();
}

/**
 * Which reader a section gets: by its title and, below the top level, by its parent's kind
 * (spec-source/README.md#sections). The top level is whatever level the title's sections are at: a spec written one
 * level deeper reads the same.
 */
function kindOf(section: Section, parent: SectionKind | null): SectionKind {
  const t = titleWords(section.title);
  if (parent === null) return TOP_SECTIONS.find(([re]) => re.test(t))?.[1] ?? "unknown";
  // The subsections of a top-level "Responses" section: the success envelope and the error body.
  if (parent === "envelope") return "envelope";
  if (parent === "resources") {
    if (/\benvelope\b|^legacy error body\b/.test(t)) return "envelope";
    if (/^(?:other|misc(?:ellaneous)?) resources\b|^resources described with\b/.test(t)) return "other-resources";
    return "resource";
  }
  if (parent === "endpoints") {
    if (/^(?:addressing|endpoint forms|request rules)\b/.test(t)) return "addressing";
    if (/^(?:retrieving|getting|downloading) file\b/.test(t)) return "file-retrieval";
    if (/(?:^|\b(?:rest|version|only)\s+)3\.0\b/.test(t) && !/\blegacy\b/.test(t)) return "methods-v3";
    return "methods";
  }
  if (FLAT.has(parent)) return parent;
  return "unknown";
}


/** The reader table: one reader per section kind; each folds its section into the fragments. */
const readers: Record<SectionKind, (ctx: ReadContext, s: Section, f: SpecReading) => void> = {
  overview: (ctx, s, f) => pushAll(f.overview, readStatements(ctx, s.blocks, "overview", s.title)),
  resources: (ctx, s, f) => pushAll(f.intro, readStatements(ctx, s.blocks, "resources", s.title)),
  // An envelope in several sections ("4.1 Success envelope", "4.2 Legacy error body") is one envelope.
  envelope: (ctx, s, f) => {
    f.envelope = readEnvelope(ctx, s, f.envelope ?? undefined);
  },
  resource: (ctx, s, f) => pushAll(f.resources, readResourceSection(ctx, s)),
  "other-resources": (ctx, s, f) => pushAll(f.resources, readOtherResources(ctx, s)),
  states: (ctx, s, f) => {
    const r = readStates(ctx, s);
    pushAll(f.states.transitions, r.transitions);
    pushAll(f.states.notes, r.notes);
  },
  endpoints: (ctx, s, f) => pushAll(f.endpointNotes, readStatements(ctx, s.blocks, "endpoints", s.title)),
  addressing: (ctx, s, f) => {
    const r = readAddressing(ctx, s);
    pushAll(f.addressing.forms, r.forms);
    pushAll(f.addressing.rules, r.rules);
  },
  "methods-v3": (ctx, s, f) => foldMethods(ctx, s, f, "v3"),
  methods: (ctx, s, f) => foldMethods(ctx, s, f, "legacy"),
  "file-retrieval": (ctx, s, f) => {
    const r = readFileRetrieval(ctx, s);
    pushAll(f.fileRetrieval.rows, r.rows);
    pushAll(f.fileRetrieval.rules, r.rules);
  },
  authentication: (ctx, s, f) => {
    const r = readAuthentication(ctx, s);
    pushAll(f.authentication.rules, r.rules);
    pushAll(f.authentication.applicationContext, r.applicationContext);
    pushAll(f.errors.catalogue, r.catalogue);
  },
  events: (ctx, s, f) => pushAll(f.events, readStatements(ctx, s.blocks, "events", s.title)),
  errors: (ctx, s, f) => {
    const r = readErrorsSection(ctx, s);
    pushAll(f.errors.catalogue, r.catalogue);
    pushAll(f.errors.notes, r.notes);
    pushAll(f.olderStatuses, r.older);
  },
  limits: (ctx, s, f) => {
    const r = readLimits(ctx, s);
    pushAll(f.limits.table, r.table);
    pushAll(f.limits.rules, r.rules);
  },
  versioning: (ctx, s, f) => pushAll(f.versioning, readStatements(ctx, s.blocks, "versioning", s.title)),
  unknown: (ctx, s, f) => {
    report(ctx, "unknown-section", { file: ctx.file.path, ...lineCol(ctx, s.start), endLine: lineCol(ctx, s.end).line, endColumn: lineCol(ctx, s.end).column }, { title: s.title, level: s.depth });
    pushAll(f.endpointNotes, readStatements(ctx, s.blocks, `section:${s.title}`, s.title));
  },
};

function lineCol(ctx: ReadContext, offset: number): { line: number; column: number } {
  const s = sourceOf(ctx, { text: "", start: offset });
  return { line: s.line, column: s.column };
}

function foldMethodHeading(ctx: ReadContext, s: Section, f: SpecReading, version: "legacy" | "v3", area: string): void {
  const r = readMethodHeadingSection(ctx, s, version, area);
  pushAll(f.methods, r.methods);
  pushAll(f.resources, r.shapes);
  pushAll(f.named, r.named.map((n) => ({ ...n, area })));
  pushAll(f.endpointNotes, r.notes);
}

function foldMethods(ctx: ReadContext, s: Section, f: SpecReading, version: "legacy" | "v3"): void {
  const r = readMethodSection(ctx, s, version);
  pushAll(f.methods, r.methods);
  pushAll(f.resources, r.shapes);
  pushAll(f.named, r.named.map((n) => ({ ...n, area: s.title })));
  pushAll(f.endpointNotes, r.notes);
}

/** The ledger's kind of each section kind whose items must be placed (read/ledger.ts). */
const LEDGER: Partial<Record<SectionKind, LedgerScope["kind"]>> = {
  methods: "methods",
  "methods-v3": "methods",
  resource: "resources",
  "other-resources": "resources",
  envelope: "resources",
  errors: "errors",
  authentication: "errors",
};

/** Section kinds whose readers take a quoted block as their own text: a method's and a resource's read it themselves. */
const UNQUOTED: ReadonlySet<SectionKind> = new Set<SectionKind>(["overview", "resources", "envelope", "states", "endpoints", "addressing", "file-retrieval", "authentication", "events", "errors", "limits", "versioning"]);

/** "> Note", "> **Warning**", "> Info": a label that only says how the quoted text looks. */
const NOTE_LABEL = /^\s*(?:\*\*)?(?:notes?|warning|info|important|tip)(?:\*\*)?\s*:?\s*(?:\*\*)?\s*$/i;

/**
 * Another author quotes some of a section's text in a note (`> Note` and a paragraph, `> **Not shown:**` and a list):
 * the quoted blocks are read as the section's own, in place, and a label that only names the note's look is
 * dropped. A "Not shown:" label stays: its list's items are the section's gaps (read/sections.ts).
 */
function unquoted(ctx: ReadContext, section: Section): Section {
  if (!section.blocks.some((b) => b.type === "blockquote")) return section;
  const blocks: RootContent[] = [];
  for (const b of section.blocks) {
    if (b.type !== "blockquote") {
      blocks.push(b);
      continue;
    }
    const inner = [...b.children] as RootContent[];
    const first = inner[0];
    if (first?.type === "paragraph" && NOTE_LABEL.test(textOf(ctx.file, first).text)) inner.shift();
    pushAll(blocks, inner);
  }
  return { ...section, blocks };
}

function walk(ctx: ReadContext, section: Section, parent: SectionKind | null, f: SpecReading, scopes: LedgerScope[]): void {
  const kind = kindOf(section, parent);
  readers[kind](ctx, UNQUOTED.has(kind) ? unquoted(ctx, section) : section, f);
  const ledger = LEDGER[kind];
  if (ledger) scopes.push({ section, kind: ledger });
  // A method written as a heading reads its subsections (Parameters, Errors…) itself.
  const methods = kind === "methods" || kind === "methods-v3";
  for (const child of section.children) {
    if (methods && methodInHeading(child.title)) {
      foldMethodHeading(ctx, child, f, kind === "methods-v3" ? "v3" : "legacy", section.title);
      // Its subsections (`Error Handling`) are the method's: the ledger owns their names to it.
      const all = (s: Section): void => {
        scopes.push({ section: s, kind: "methods", ...(s === child ? {} : { within: child }) });
        for (const c of s.children) all(c);
      };
      all(child);
    } else walk(ctx, child, kind, f, scopes);
  }
}

/**
 * Every heading with its anchor, as GitHub renders the file (github-slugger, the slugger of GitHub's own renderer
 * and of rehype-slug): JSDoc points at these, so that inserting a method moves no other declaration's `@see`.
 */
function sectionAnchors(ctx: ReadContext, root: Section): SectionAnchor[] {
  const slugger = new GithubSlugger();
  const out: SectionAnchor[] = [];
  const walk = (s: Section) => {
    if (s.depth > 0) out.push({ title: s.title, depth: s.depth, anchor: slugger.slug(s.title.replace(/`/g, "")), source: sourceOf(ctx, { text: "", start: s.start }) });
    for (const c of s.children) walk(c);
  };
  walk(root);
  return out;
}

/**
 * Reads a spec file into fragments; problems go to `diagnostics`, never into exceptions. `ledger` is what the no-drop
 * ledger (read/ledger.ts) accounts for once the model stage has linked the facts: the sections whose items must be
 * placed, and the lines of facts that keep no position of their own.
 */
export function readSpec(
  file: SpecFile,
  opts: { trace?: ReadContext["trace"] } = {},
): { fragments: Fragments; diagnostics: Diagnostic[]; ledger: { scopes: LedgerScope[]; placed: ReadonlySet<number> } } {
  const ctx: ReadContext = { file, diagnostics: [], gaps: [], ...(opts.trace ? { trace: opts.trace } : {}) };
  const scopes: LedgerScope[] = [];
  const f = emptyReading();
  const parsed = parseMarkdown(file);
  for (const d of parsed.deep) {
    report(ctx, "nesting-too-deep", spanOf(file, d.offset, d.offset + 1), { depth: d.depth, limit: MAX_NESTING });
  }
  const root = sectionize(file, parsed.root);
  f.sections = sectionAnchors(ctx, root);
  // The title: the first heading of the shallowest level, at whatever level the author put it.
  const shallowest = Math.min(...root.children.map((c) => c.depth));
  const candidates = root.children.filter((c) => c.depth === shallowest);
  const only = candidates.length === 1 && shallowest <= 2 && candidates[0]?.children.length ? candidates[0] : undefined;
  const top = root.children.find((c) => c.depth === 1) ?? only;
  if (!top) {
    report(ctx, "missing-title", { file: file.path, line: 1, column: 1, endLine: 1, endColumn: 1 }, {});
    for (const child of root.children) walk(ctx, child, null, f, scopes);
  } else {
    f.title = top.title;
    f.titleSource = sourceOf(ctx, { text: "", start: top.start });
    pushAll(f.intro, readStatements(ctx, [...root.blocks, ...top.blocks], "intro"));
    for (const child of top.children) walk(ctx, child, null, f, scopes);
    // Sections at level 1 or 2 after the first title are read as if they were under it.
    for (const other of root.children) if (other !== top) walk(ctx, other, null, f, scopes);
  }
  for (const n of ctx.namedV3 ?? []) f.named.push({ ...n, area: "", version: "v3" });
  pushAll(f.gaps, ctx.gaps);
  applyOlderStatuses(f.errors.catalogue, f.olderStatuses, (o) => {
    ctx.subject = undefined;
    report(ctx, "unknown-reference", { ...o.source, endLine: o.source.line, endColumn: o.source.column + o.code.length }, { name: o.code, what: "error code of the older description (not in the system errors table)" });
  });
  f.olderStatuses = [];
  readFieldForms(f.methods, f.resources, f.errors.catalogue, f.envelope ? [...f.envelope.members, ...f.envelope.time, ...f.envelope.legacyErrorBody] : []);
  // Each error learns the failure of a parameter it answers, where the spec says which (read/triggers.ts): once the
  // fields' forms are read, for a code that names a URL parameter's failure (its `schemes`).
  for (const m of f.methods) {
    const groups = m.constraints.flatMap((c) => (c.kind === "at-least-one" ? [c.params.filter((p) => m.params.some((q) => q.name === p))] : []));
    m.errors = m.errors.map((e) => {
      const trigger = errorTrigger(e, m.params, groups);
      return trigger ? { ...e, trigger } : e;
    });
  }
  // Once every section and form is read: the platform's facts, the States rows' effects, the gaps' topics.
  f.platform = readPlatformFacts(f);
  readStateEffects(f);
  markGapTopics(f.gaps);
  const fragments = fragmentsOf(file.path, f);
  readRuleFacts(fragments);
  return { fragments, diagnostics: ctx.diagnostics, ledger: { scopes, placed: ctx.placed ?? new Set() } };
}

