import type { Blockquote, List, Table } from "mdast";
import type { Resource } from "../model/types.js";
import { type Section, type Text, listItemText, textOf } from "../parse/markdown.js";
import { type ReadContext, addGap, collapse, report, sentences, sourceOf, spanOfText, statement } from "./inline.js";
import { readReturnedBy, readTitleLinks } from "./links.js";
import { headerIndex, tableRows } from "./tables.js";
import { pushAll } from "../util/arrays.js";
import { fillFieldSources, mergeRules, readKeyedObject, readTypingRules } from "./field-lists.js";
import { addLinks, fieldsOf, newResource, nullableByPrefix, readFieldListBullet, readFieldTable, readGapSentence, readGroupBullet, readGroupTable, readShapeBullet } from "./resource-parts.js";
import { readResourceBullet, readTitledParagraph } from "./resource-body.js";
import { RESOURCE_SENTENCES, type ResourceSentence, type SectionState } from "./resource-sentences.js";

/**
 * Reads the sections of "Resources and their fields" (spec-source/README.md#resources): field tables
 * (`| Field | Type | Meaning |`), grouped tables (`| Group | Fields |`), keyed objects ("`allowedActions`: object
 * keyed by user id; value is ..."), nested shapes as bullets, and the "Other resources" bullet list:
 *
 *     - Signed document (`sign.b2e.personal.tail` item): id (integer), title (string), file_url (string, download link).
 */

/** "`x` is an object keyed by K. Each value is an object of booleans with these keys: A, B" (the keys may follow). */
const KEYED_SENTENCES = /^`([A-Za-z_]\w*)` is an? (object keyed by [^.;]+)[.;]\s*Each value is an object of booleans with (?:these |the )?keys:?\s*(.*)$/;

/** A section under "Resources and their fields" other than the envelope and "Other resources". */
export function readResourceSection(ctx: ReadContext, section: Section): Resource[] {
  const at: Text = { text: section.title, start: section.start };
  const r = newResource(ctx, section.title, at);
  ctx.subject = { resource: r.name };
  addLinks(r, readTitleLinks(section.title, r.source).links);
  const st: SectionState = { ctx, r, rules: null, extra: [], keysFollow: null, listFollows: false, membersOf: null };
  for (const block of section.blocks) {
    if (block.type === "table") {
      readSectionTable(st, block);
      continue;
    }
    // "Members of `X`:" holds for the table right after it, not past another block.
    if (block.type !== "paragraph") st.membersOf = null;
    if (block.type === "blockquote") readSectionQuote(st, block);
    else if (block.type === "list") readSectionList(st, block);
    else if (block.type === "paragraph") readSectionParagraph(st, textOf(ctx.file, block));
    else {
      const t = textOf(ctx.file, block);
      report(ctx, "unread-text", spanOfText(ctx, t), { what: block.type, text: collapse(t.text).slice(0, 80) });
    }
  }
  // A table whose one row is the resource's own member (`allowedActions` of "Allowed actions") describes that
  // member's value: the resource is it, as "`allowedActions`: object keyed by …" says.
  const only = r.type.kind === "object" && r.type.members.length === 1 ? r.type.members[0] : undefined;
  if (only && only.name.toLowerCase() === r.name.toLowerCase() && only.type.kind === "object") {
    const type = only.type;
    if (type.additional?.kind === "object") {
      type.additional = { ...type.additional, name: `${r.name}Value` };
      fillFieldSources(type.additional.members, only.source);
    }
    r.type = type;
    r.description = collapse(`\`${only.name}\`: ${only.description}`);
  }
  ctx.subject = undefined;
  return [r, ...st.extra];
}

/** A field table, a group table, or a `| Field | Structure |` table of shapes; after "Members of `X`:", X's. */
function readSectionTable(st: SectionState, block: Table): void {
  const { ctx, r, rules } = st;
  const header = block.children[0];
  const h = header ? headerIndex(ctx, header) : null;
  if (h && h.find(/^(?:structure|shape)$/) !== null) {
    // "| Field | Structure |": each row is a shape bullet ("`creator`, `responsible`: object with …").
    const { rows } = tableRows(ctx, block);
    const name = h.find(/^(?:field|fields|member|name)$/) ?? 0;
    const shape = h.find(/^(?:structure|shape)$/) ?? 1;
    for (const cells of rows) {
      const a = cells[name];
      const b = cells[shape];
      if (!a || !b) continue;
      // The row as the bullet "NAMES: SHAPE", its start moved so that the shape's offsets stay right.
      const joined: Text = { text: `${a.text}: ${b.text}`, start: b.start - a.text.length - 2 };
      if (!readShapeBullet(ctx, r, joined, rules)) report(ctx, "unread-text", spanOfText(ctx, b), { what: "table row", text: collapse(b.text).slice(0, 80) });
    }
    return;
  }
  const fields = h?.find(/^(?:field )?group$/) !== null ? readGroupTable(ctx, block, rules) : readFieldTable(ctx, block, rules);
  if (st.membersOf?.type.kind === "object") pushAll(st.membersOf.type.members, fields);
  else pushAll(fieldsOf(ctx, r, textOf(ctx.file, block)), fields);
  st.membersOf = null;
}

/** "> **Not shown:**" and a list: each item is a gap of the resource; a quoted sentence is a gap sentence. */
function readSectionQuote(st: SectionState, block: Blockquote): void {
  const { ctx, r } = st;
  for (const child of block.children) {
    if (child.type === "list") for (const item of child.children) addGap(ctx, listItemText(ctx.file, item), collapse(listItemText(ctx.file, item).text).replace(/[;.]$/, ""), [`resource:${r.name}`]);
    else if (!/^\**(?:Not shown|Note|Warning|Info)\**:?\**$/i.test(collapse(textOf(ctx.file, child).text))) {
      const ct = textOf(ctx.file, child);
      if (!readGapSentence(ctx, ct, [`resource:${r.name}`])) report(ctx, "unread-text", spanOfText(ctx, ct), { what: child.type, text: collapse(ct.text).slice(0, 80) });
    }
  }
}

/** Bullets: a group of fields, a typing rule, a shape, a gap, a field list; else a note, with a warning. */
function readSectionList(st: SectionState, block: List): void {
  const { ctx, r } = st;
  for (const item of block.children) {
    const it = listItemText(ctx.file, item);
    if (readGroupBullet(ctx, r, it, st.rules)) continue;
    const typingBullet = readTypingRules(collapse(it.text));
    if (typingBullet) {
      st.rules = mergeRules(st.rules, typingBullet);
      r.typingRules.push(statement(ctx, it));
      continue;
    }
    if (readShapeBullet(ctx, r, it, st.rules)) continue;
    if (readGapSentence(ctx, it, [`resource:${r.name}`])) continue;
    if (r.type.kind === "object" && readFieldListBullet(ctx, r, it, st.rules)) continue;
    r.notes.push(statement(ctx, it));
    report(ctx, "unread-text", spanOfText(ctx, it), { what: "bullet", text: collapse(it.text).slice(0, 80) });
  }
}

/**
 * A paragraph of the section, read whole where it is one statement (a member's label before its table, a titled
 * resource of its own, the resource as a keyed map, "**Returned by:** …"), else sentence by sentence through
 * RESOURCE_SENTENCES; a sentence no row takes is a note of the resource.
 */
function readSectionParagraph(st: SectionState, t: Text): void {
  const { ctx, r } = st;
  const holderWords = /^(?:(?:Members|Fields) of )?`([A-Za-z_]\w*)`(?: (?:members|fields|has))?:$/.exec(collapse(t.text));
  const holder = holderWords && r.type.kind === "object" ? r.type.members.find((f) => f.name === holderWords[1]) : undefined;
  if (holder && holder.type.kind === "object" && holder.type.members.length === 0 && !holder.type.additional) {
    st.membersOf = holder;
    r.notes.push(statement(ctx, t));
    return;
  }
  st.membersOf = null;
  // "**Field labels** (`mailservice.fields`): an object of …" inside a resource's section: a resource of its own,
  // titled in bold with the method it comes from, as under "Other resources".
  if (/^\*\*[^*]+\*\*\s*\(`[a-z][\w.]*`[^)]*\)\s*(?::|—|–)/.test(t.text)) {
    const titled = readTitledParagraph(ctx, t);
    ctx.subject = { resource: r.name };
    if (titled) {
      st.extra.push(titled);
      return;
    }
  }
  if (readKeyedParagraph(st, t)) return;
  // "**Returned by:** …" reads as "Returned by: …"; a later "In 3.0, `x` uses the key `item`" belongs to it.
  const unbold = t.text.startsWith("**") ? { text: t.text.replace(/^\*\*([^*]+)\*\*/, "  $1  "), start: t.start } : t;
  const whole = collapse(unbold.text);
  const wholeReturned = unbold !== t && /^Returned by:?\s*`/.test(whole) ? readReturnedBy(whole, sourceOf(ctx, unbold)) : null;
  if (wholeReturned) {
    addLinks(r, wholeReturned);
    r.notes.push(statement(ctx, unbold));
    return;
  }
  for (const sentence of sentences(unbold)) {
    const x: ResourceSentence = { st, sentence, s: collapse(sentence.text) };
    if (!RESOURCE_SENTENCES.some((row) => row.read(x))) r.notes.push(statement(ctx, sentence));
  }
}

/**
 * "`allowedActions`: object keyed by user id; value is ..." makes the resource a map. So does "`allowedActions` is an
 * object keyed by user id. Each value is an object of booleans with these keys:" and the keys' paragraph.
 */
function readKeyedParagraph(st: SectionState, t: Text): boolean {
  const { ctx, r } = st;
  let words = collapse(t.text);
  if (st.keysFollow) {
    words = `${st.keysFollow} ${words}`;
    st.keysFollow = null;
  }
  // A developer's shorthand of the same: "`allowedActions` = obj keyed by user id → value = obj of bools, keys:".
  words = words
    .replace(/^(`[A-Za-z_]\w*`) = obj(?:ect)? keyed by /, "$1 is an object keyed by ")
    .replace(/\s*(?:→|->|;)\s*value = obj(?:ect)? of bools?(?:eans)?,? (?:with )?(?:these )?keys:?/, ". Each value is an object of booleans with these keys:");
  const spelled = KEYED_SENTENCES.exec(words);
  if (spelled) {
    words = `\`${spelled[1]}\`: ${spelled[2]}; value is an object of booleans with keys ${spelled[3] ?? ""}`.trim();
    if (!spelled[3]) {
      st.keysFollow = words;
      return true;
    }
  }
  const keyed = /^`([A-Za-z_]\w*)`:\s*(.*)$/.exec(words);
  if (!keyed) return false;
  const type = readKeyedObject((keyed[2] ?? "").replace(/\.$/, ""));
  if (!type) return false;
  if (type.kind === "object" && type.additional?.kind === "object") type.additional = { ...type.additional, name: `${r.name}Value` };
  r.type = type;
  r.description = words;
  if (type.kind === "object" && type.additional?.kind === "object") fillFieldSources(type.additional.members, sourceOf(ctx, t));
  return true;
}

/**
 * "Other resources": one bullet a resource, or one paragraph a resource that opens with its title in bold
 * (`**Pay system item** (\`sale.paysystem.list\`) — fields: ID, NAME`), whose fields may follow as a table.
 */
export function readOtherResources(ctx: ReadContext, section: Section): Resource[] {
  const out: Resource[] = [];
  /** The resource of the last bold-titled paragraph: a table right after it holds its fields. */
  let open: Resource | null = null;
  /** The resource whose table was the last block: a sentence after it may still speak of its fields. */
  let tabled: Resource | null = null;
  for (const block of section.blocks) {
    if (block.type === "list") {
      open = null;
      for (const item of block.children) {
        const t = listItemText(ctx.file, item);
        // "- **Calendar user settings** — see `m` in the method reference": a bold title, read as a titled paragraph.
        const r = /^\*\*[^*]+\*\*(?!\s*:)/.test(t.text) ? readTitledParagraph(ctx, t) : readResourceBullet(ctx, t);
        if (r) out.push(r);
      }
      continue;
    }
    const t = textOf(ctx.file, block);
    if (block.type === "table" && open) {
      ctx.subject = { resource: open.name };
      pushAll(fieldsOf(ctx, open, t), readFieldTable(ctx, block, null));
      ctx.subject = undefined;
      tabled = open;
      open = null;
      continue;
    }
    const titled = block.type === "paragraph" ? readTitledParagraph(ctx, t) : null;
    if (titled) {
      out.push(titled);
      open = titled;
      tabled = null;
      continue;
    }
    open = null;
    // "SMTP fields may be null when unset." right after a resource's table, one sentence: as in the resource's own section.
    if (block.type === "paragraph" && tabled && /^[^.]*\.?$/.test(collapse(t.text)) && nullableByPrefix(tabled, collapse(t.text))) {
      tabled.notes.push(statement(ctx, t));
      continue;
    }
    tabled = null;
    report(ctx, "unread-text", spanOfText(ctx, t), { what: block.type, text: collapse(t.text).slice(0, 80) });
  }
  return out;
}
