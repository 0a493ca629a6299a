import type { ListItem, RootContent } from "mdast";
import type { Diagnostic } from "../diagnostics/catalogue.js";
import type { Field, KnownGap, Method, Model, Resource, Source, Statement, TypeRef } from "../model/types.js";
import { type Section, type SpecFile, listItemText, spanOf, textOf } from "../parse/markdown.js";
import { type ReadContext, codeSpans, report, sentences } from "./inline.js";
import { readTypePhrase } from "./types.js";

/**
 * The no-drop ledger (spec-source/README.md#nothing-dropped): every table row, list item and backticked name under a
 * method, a resource or an error table either became a typed fact of the fragments (a node with its `source` on the
 * item's lines, or for a backticked name a name or value of the facts it belongs to), or gives an `unplaced` warning
 * at its position, or is one of the kinds a reader skips on purpose, which are counted, not warned. A row, or a
 * backticked name among parameters, fields or errors, is never placed by a note or a description that copies it.
 *
 * The ledger reads the parsed document itself, not the readers' bookkeeping: a reader that keeps a row as prose
 * places nothing, whatever it believes it did.
 */

/** What a front end skips on purpose, counted in `model.json` (`readerSkips`). */
export type SkipKind = "example" | "code-block" | "html-block";

export interface LedgerScope {
  section: Section;
  /** Method and resource sections hold fields; error sections only error tables. */
  kind: "methods" | "resources" | "errors";
  /** A subsection of a method written as a heading (`Error Handling`): it speaks of that method. */
  within?: Section;
}

export interface LedgerResult {
  items: number;
  placed: number;
  skipped: Record<SkipKind, number>;
  unplaced: Array<{ what: "row" | "item" | "name"; text: string; start: number; end: number; method?: string }>;
}

/** The shape of a method's name (`tasks.task.get`, `disk.*`). */
const METHOD_NAME = /^[a-z][A-Za-z0-9_]*(?:\.(?:[A-Za-z0-9_]+|\*))+$/;

/** Words that join names inside one backticked text (`USER_ID or USER_PHONE_INNER`); never a fact of their own. */
const JOINERS = new Set(["or", "and", "of", "in", "to"]);

/** A backticked name given as an example ("e.g. `x`", "such as `x`", "for example `x`", "like `x`") in its own clause. */
const EXAMPLE_BEFORE = /(?:\be\.g\.|\bfor example|\bsuch as|\blike|\bfor instance|\bsay)\s*(?:[^;.()]*?)?$/i;

interface Owner {
  line: number;
  names: Set<string>;
  method?: string;
}

function addType(t: TypeRef | undefined, out: Set<string>): void {
  if (!t) return;
  switch (t.kind) {
    case "primitive":
      for (const v of t.enum ?? []) out.add(String(v));
      return;
    case "object":
      for (const f of t.members) addField(f, out);
      addType(t.additional, out);
      for (const k of t.keyNames ?? []) out.add(k);
      if (t.extends) out.add(t.extends);
      return;
    case "array":
      addType(t.items, out);
      return;
    case "union":
      for (const o of t.options) addType(o, out);
      return;
    case "ref":
      out.add(t.resource);
      out.add(`ref:${t.resource}`);
      return;
    case "unresolved":
      out.add(t.text);
      if (t.member) out.add(t.member);
      for (const f of t.with ?? []) addField(f, out);
      return;
    default:
      return;
  }
}

function addField(f: Field, out: Set<string>): void {
  out.add(f.name);
  if (f.default) {
    out.add(f.default.text);
    if (f.default.value !== undefined) out.add(String(f.default.value));
  }
  for (const e of f.fileExtensions ?? []) out.add(e);
  for (const p of f.keyPrefixes ?? []) out.add(p.prefix);
  for (const s of f.schemes ?? []) out.add(s);
  for (const s of f.knownValues ?? []) out.add(s);
  for (const s of f.appliesWhen ?? []) out.add(s);
  if (f.selectAs) out.add(f.selectAs);
  if (f.feature) {
    out.add(f.feature.method);
    out.add(f.feature.code);
  }
  if (f.deprecated) for (const c of codeSpans({ text: f.deprecated.text, start: 0 })) out.add(c.value);
  addType(f.type, out);
}

function methodNames(m: Method): Set<string> {
  const out = new Set<string>([m.name, ...m.aliases, ...(m.scopes ?? [])]);
  if (m.idempotencyKey) out.add("Idempotency-Key");
  if (m.deprecated?.replacement) out.add(m.deprecated.replacement);
  for (const p of m.params) addField(p, out);
  for (const c of m.constraints) {
    if (c.kind === "call-forms") {
      for (const f of c.forms) for (const p of f) out.add(p);
    } else for (const p of c.params) out.add(p);
    if (c.kind === "required-unless") {
      out.add(c.unless.param);
      out.add(c.unless.value);
    }
  }
  for (const e of m.errors) {
    if (e.code !== null) out.add(e.code);
    if (e.text !== null) out.add(e.text);
    if (e.trigger) for (const p of e.trigger.parameter.split(", ")) out.add(p);
  }
  if (m.result) {
    if (m.result.key) out.add(m.result.key);
    addType(m.result.type, out);
  }
  return out;
}

function resourceNames(r: Resource): Set<string> {
  const out = new Set<string>([r.name, ...r.returnedBy]);
  for (const l of r.links) {
    out.add(l.method);
    if (l.key) out.add(l.key);
  }
  addType(r.type, out);
  for (const s of r.typingRules) for (const ref of s.refs) out.add(ref);
  for (const s of r.fieldScopes ?? []) out.add(s);
  if (r.memberName) out.add(r.memberName);
  return out;
}

/** Lines that hold a typed fact (a node read from that line), and lines that hold a note or description statement. */
function factLines(file: SpecFile, f: Model, gaps: KnownGap[]): { typed: Set<number>; offsets: number[]; noted: Set<number>; objects: Set<number> } {
  const typed = new Set<number>();
  const offsets: number[] = [];
  const noted = new Set<number>();
  const objects = new Set<number>();
  const at = (s: Source | undefined) => {
    if (!s) return;
    typed.add(s.line);
    offsets.push((file.lineStarts[s.line - 1] ?? 0) + s.column - 1);
  };
  const note = (ss: Statement[]) => {
    for (const s of ss) for (let l = s.source.line; l <= s.source.line + newlines(s.text); l++) noted.add(l);
  };
  const field = (x: Field) => {
    at(x.source);
    if (x.type.kind === "object" || x.type.kind === "ref") objects.add(x.source.line);
    type(x.type);
  };
  const type = (t: TypeRef) => {
    if (t.kind === "object") {
      for (const m of t.members) field(m);
      if (t.additional) type(t.additional);
    } else if (t.kind === "array") type(t.items);
    else if (t.kind === "union") for (const o of t.options) type(o);
  };
  for (const m of f.methods) {
    at(m.source);
    for (const p of m.params) field(p);
    for (const c of m.constraints) at(c.source);
    for (const e of m.errors) at(e.source);
    if (m.result) {
      at(m.result.source);
      type(m.result.type);
    }
    if (m.errorsOpen) at(m.errorsOpen.source);
    for (const s of m.mentions) at(s);
    note(m.notes);
  }
  for (const r of f.resources) {
    at(r.source);
    for (const l of r.links) at(l.source);
    type(r.type);
    for (const s of r.typingRules) at(s.source);
    note(r.notes);
  }
  if (f.envelope) {
    at(f.envelope.source);
    for (const x of [...f.envelope.members, ...f.envelope.time, ...f.envelope.legacyErrorBody]) field(x);
    note(f.envelope.notes);
  }
  for (const e of f.errors.catalogue) at(e.source);
  for (const g of gaps) at(g.source);
  for (const a of f.addressing.forms) at(a.source);
  for (const r of f.fileRetrieval.rows) at(r.source);
  for (const l of f.limits.table) at(l.source);
  for (const t of f.states.transitions) at(t.source);
  for (const ss of [f.intro, f.overview, f.events, f.versioning, f.addressing.rules, f.errors.notes, f.limits.rules, f.fileRetrieval.rules, f.authentication.rules, f.states.notes]) note(ss);
  offsets.sort((a, b) => a - b);
  return { typed, offsets, noted, objects };
}

function newlines(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * Accounts for every item of the scopes against the model (the readers' facts after the model stage has linked them:
 * a result that is a resource has that resource's names); `unplaced` warnings are returned.
 */
export function account(file: SpecFile, diagnostics: readonly Diagnostic[], scopes: LedgerScope[], placedLines: ReadonlySet<number>, f: Model): { result: LedgerResult; diagnostics: Diagnostic[] } {
  const ctx: ReadContext = { file, diagnostics: [], gaps: [] };
  const lineOf = (offset: number) => spanOf(file, offset).line;
  const { typed, offsets, noted, objects } = factLines(file, f, f.knownGaps);
  for (const l of placedLines) typed.add(l);
  /** Whether a typed fact was read from the offsets [from, to). */
  const typedIn = (from: number, to: number): boolean => {
    let lo = 0;
    let hi = offsets.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((offsets[mid] ?? 0) < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < offsets.length && (offsets[lo] ?? 0) < to;
  };
  for (const l of ctx.placed ?? []) typed.add(l);
  // A warning accounts for the lines it spans (a list the readers could not read, under an unreadable method header,
  // is one warning over all its items). Ranges merged first: each line is added once, linear in the document.
  const warned = new Set<number>();
  let reach = 0;
  for (const [from, to] of diagnostics.map((d) => [d.line, Math.max(d.line, d.endLine)] as const).sort((a, b) => a[0] - b[0])) {
    for (let l = Math.max(from, reach + 1); l <= to; l++) warned.add(l);
    reach = Math.max(reach, to);
  }
  const global = new Set<string>();
  for (const m of f.methods) {
    global.add(m.name);
    for (const a of m.aliases) global.add(a);
  }
  for (const r of f.resources) global.add(r.name);
  // Paths of the addressing forms: `/api/` and `/{method}` name their parts.
  for (const a of f.addressing.forms) for (const part of a.path.split(/[/{}]+/)) if (part) global.add(part);
  for (const e of f.errors.catalogue) {
    global.add(e.code);
    if (e.text) global.add(e.text);
    for (const v of e.variants ?? []) global.add(v.text);
  }
  if (f.envelope) for (const x of [...f.envelope.members, ...f.envelope.time, ...f.envelope.legacyErrorBody]) addField(x, global);
  const byResource = new Map(f.resources.map((r) => [r.name, resourceNames(r)]));
  // The key a method's result holds a resource under is a name of that resource (`allowedActions`).
  for (const m of f.methods) {
    const t = m.result?.type;
    if (m.result?.key && t?.kind === "ref") byResource.get(t.resource)?.add(m.result.key);
  }
  /** A method's or resource's names, with those of the resources its types refer to (`result.task` (with `isPinned`)). */
  const withRefs = (names: Set<string>): Set<string> => {
    for (const n of [...names]) {
      if (!n.startsWith("ref:")) continue;
      for (const x of byResource.get(n.slice(4)) ?? []) if (!x.startsWith("ref:")) names.add(x);
    }
    return names;
  };
  // A name belongs to the nearest method at or above it in its section, and to the section's resources (a resource
  // table's nested shapes become resources of their own at the model stage, at lines inside their parent's).
  const methods: Owner[] = f.methods.filter((m) => m.described).map((m) => ({ line: m.source.line, names: withRefs(methodNames(m)), method: m.name }));
  // A method header no reader could read ends the method above it: what follows is no method's (the property test's
  // counterexample: a broken `**task.comment.add**` gave its area's paragraph to `tasks.task.unpin`).
  for (const d of diagnostics) if (d.code === "unreadable-method-header" && d.file === file.path) methods.push({ line: d.line, names: new Set() });
  methods.sort((a, b) => a.line - b.line);
  const resources = f.resources.map((r) => ({ line: r.source.line, names: withRefs(byResource.get(r.name) ?? new Set()) }));
  let scope = { from: 0, to: 0, owner: 0, resources: new Set<string>() };
  const methodAt = (line: number): Owner | undefined => {
    let lo = 0;
    let hi = methods.length - 1;
    let found: Owner | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const o = methods[mid];
      if (o && o.line <= line) {
        found = o;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found && found.line >= scope.owner ? found : undefined;
  };
  const under = (line: number): { method?: string } => {
    const method = methodAt(line)?.method;
    return method ? { method } : {};
  };
  const result: LedgerResult = { items: 0, placed: 0, skipped: { example: 0, "code-block": 0, "html-block": 0 }, unplaced: [] };
  const linesHave = (from: number, to: number, set: Set<number>) => {
    for (let l = from; l <= to; l++) if (set.has(l)) return true;
    return false;
  };
  const known = (value: string, line: number): boolean => {
    const own = methodAt(line)?.names;
    const has = (v: string) => global.has(v) || scope.resources.has(v) || (own?.has(v) ?? false);
    // A type word in backticks (`string`, `int`) is the type a reader read on that line.
    if (typed.has(line) && readTypePhrase(value) !== null) return true;
    // A shape written in the type's place (`{field: value}`) is the object type a reader read on that line.
    if (/^\{\s*\w+\s*:[^}]*\}$/.test(value) && objects.has(line)) return true;
    if (has(value) || has(value.replace(/\(\)$/, ""))) return true;
    // A method's name is a link: the model stage makes every method named in the text a named method.
    if (METHOD_NAME.test(value)) return true;
    // Names of one family (`sale.paysystem.add/update/delete/handler.*`).
    const family = /^([a-z][\w.]*\.)([\w*]+(?:\/[\w.*]+)+)$/.exec(value);
    if (family) return (family[2] ?? "").split("/").every((last) => has(`${family[1]}${last}`));
    // A name written with its path, value or shape (`result.task`, `event_type=offline`, `{ID}`, `USER_ID or USER_PHONE_INNER`).
    const pieces = value.split(/[\s=.,|/:{}\[\]]+/).filter((p) => p.length > 0 && !JOINERS.has(p));
    return pieces.length > 0 && pieces.every(has);
  };
  const names = (text: { text: string; start: number }, strict: boolean) => {
    if (!strict) return;
    for (const c of codeSpans(text)) {
      result.items++;
      const start = text.start + c.index;
      const line = lineOf(start);
      const before = text.text.slice(Math.max(0, c.index - 60), c.index);
      if (EXAMPLE_BEFORE.test(before)) {
        result.skipped.example++;
        continue;
      }
      if (known(c.value, line) || warned.has(line)) {
        result.placed++;
        continue;
      }
      result.unplaced.push({ what: "name", text: c.value, start, end: text.start + c.end, ...under(line) });
    }
  };
  const item = (what: "row" | "item", start: number, end: number, fromLine: number, toLine: number, strict: boolean, text: string): boolean => {
    result.items++;
    if (linesHave(fromLine, toLine, typed) || linesHave(fromLine, toLine, warned) || (!strict && linesHave(fromLine, toLine, noted))) {
      result.placed++;
      return true;
    }
    result.unplaced.push({ what, text, start, end, ...under(fromLine) });
    return false;
  };
  const blocks = (nodes: readonly RootContent[], kind: LedgerScope["kind"]) => {
    for (const node of nodes) {
      const start = node.position?.start.offset ?? 0;
      const end = node.position?.end.offset ?? start;
      switch (node.type) {
        case "table":
          for (const row of node.children.slice(1)) {
            const t = textOf(file, row);
            const l = lineOf(t.start);
            const ok = item("row", t.start, t.start + t.text.length, l, l, true, t.text.trim());
            if (ok) names(t, true);
          }
          break;
        case "list":
          if (kind !== "errors") for (const li of node.children) listItem(li, kind);
          break;
        case "paragraph":
          // A method's paragraph mixes facts and prose: a sentence from which a fact was read is checked name by
          // name; a sentence from which none was read is the method's description or a note (spec-source/README.md).
          // A resource's paragraphs are all about its fields: every name in them is checked.
          if (kind === "resources") names(textOf(file, node), true);
          else if (kind !== "errors") for (const sentence of sentences(textOf(file, node))) names(sentence, typedIn(sentence.start, sentence.start + sentence.text.length + 1));
          break;
        case "blockquote":
          blocks(node.children, kind);
          break;
        case "code":
          result.skipped["code-block"]++;
          break;
        case "html":
          result.skipped["html-block"]++;
          break;
        default:
          break;
      }
    }
  };
  const listItem = (li: ListItem, kind: LedgerScope["kind"]) => {
    const own = li.children.filter((c) => c.type === "paragraph" || c.type === "heading");
    const nested = li.children.filter((c) => c.type !== "paragraph" && c.type !== "heading") as RootContent[];
    if (own.length > 0) {
      const t = listItemText(file, { ...li, children: own } as unknown as ListItem);
      const from = lineOf(t.start);
      const to = lineOf(t.start + t.text.length);
      // An item that opens with a backticked name is a parameter or field: a note that copies it does not place it.
      const strict = /^\s*(?:\*\*)?`/.test(t.text);
      const ok = item("item", t.start, t.start + t.text.length, from, to, strict, t.text.trim());
      if (ok) names(t, linesHave(from, to, typed));
    }
    blocks(nested, kind);
  };
  for (const s of scopes) {
    const last = s.section.blocks[s.section.blocks.length - 1];
    const from = lineOf(s.section.start);
    const to = lineOf(last?.position?.end.offset ?? s.section.start);
    const names = new Set<string>();
    for (const r of resources) if (r.line >= from && r.line <= to) for (const n of r.names) names.add(n);
    scope = { from, to, owner: s.within ? lineOf(s.within.start) : from, resources: names };
    blocks(s.section.blocks, s.kind);
  }
  for (const u of result.unplaced) {
    // The method the item is under, so that a config's `ignore` can name it.
    ctx.subject = u.method ? { method: u.method } : undefined;
    report(ctx, "unplaced", spanOf(file, u.start, u.end), { what: u.what === "name" ? `name '${u.text}'` : `${u.what === "row" ? "table row" : "list item"} '${clip(u.text)}'` });
  }
  return { result, diagnostics: ctx.diagnostics };
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, " ");
  return one.length > 60 ? `${one.slice(0, 57)}...` : one;
}
