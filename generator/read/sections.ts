import type { RootContent, Table } from "mdast";
import type { AddressingForm, CatalogueError, FileRetrievalRow, Limit, StateTransition, Statement } from "../model/types.js";
import { type Section, type Text, listItemText, sliceText, textOf, trimText } from "../parse/markdown.js";
import { NOT_SHOWN, type ReadContext, addGap, clauses, collapse, place, report, sentences, sourceOf, spanOfText, statement } from "./inline.js";
import { ADDRESSING_COLUMNS, ERROR_COLUMNS, FILE_COLUMNS, LIMIT_COLUMNS, STATE_COLUMNS, cellText, errorWords, headerIndex, partitionTables, tableRows, warnErrorColumns } from "./tables.js";
import type { OlderStatus } from "../model/fragments.js";
import { pushAll } from "../util/arrays.js";

/**
 * The readers of the prose sections: each takes its section's blocks and returns statements, table rows and known
 * gaps (spec-source/README.md#sections). A statement is kept verbatim with its position; a "not shown" sentence
 * becomes a known gap.
 */

/** Paragraphs and list items of a section as statements; "not shown" ones become known gaps. */
/** "Areas with 3.0 methods", "Areas that have 3.0 methods:" as a label of its own (a table follows). */
const V3_AREAS = /^Areas (?:with|w\/|that have) 3\.0 methods:?$/i;

export function readStatements(ctx: ReadContext, blocks: RootContent[], gapTarget: string, title: string = gapTarget): Statement[] {
  const out: Statement[] = [];
  /** After a paragraph "Not shown:" (the label of a quoted note), each item of the next list is a gap. */
  let gapList = false;
  /** After a label "Areas that have 3.0 methods", the next table lists them, a row an area. */
  let v3Areas = false;
  for (const block of blocks) {
    if (block.type === "paragraph" && V3_AREAS.test(collapse(textOf(ctx.file, block).text).replace(/\*\*/g, ""))) {
      v3Areas = true;
      out.push(statement(ctx, textOf(ctx.file, block)));
      continue;
    }
    if (v3Areas && block.type === "table") {
      v3Areas = false;
      // Each row is a statement; the method groups it names are 3.0 methods the spec names, except those it says
      // "stay legacy" or "remain legacy" (`department.*`).
      for (const row of tableRows(ctx, block).rows) {
        const t = { text: row.map((c) => c.text).join(" | "), start: row[0]?.start ?? 0 };
        out.push(statement(ctx, t));
        // Clause by clause (a split, not a look-ahead per name: linear in the row).
        for (const clause of t.text.split(/[;()|]|\.\s/)) {
          if (/\b(?:stays?|remains?) legacy\b/.test(clause)) continue;
          for (const x of clause.matchAll(/`([a-z][\w]*(?:\.(?:[\w]+|\*))+)`/g)) (ctx.namedV3 ??= []).push({ name: x[1] ?? "", source: sourceOf(ctx, t) });
        }
        for (const c of row) place(ctx, c);
      }
      continue;
    }
    v3Areas = false;
    if (block.type === "paragraph" && /^(?:\*\*)?not shown:?(?:\*\*)?:?$/i.test(collapse(textOf(ctx.file, block).text))) {
      gapList = true;
      continue;
    }
    if (gapList && block.type === "list") {
      gapList = false;
      for (const item of block.children) {
        const t = listItemText(ctx.file, item);
        addGap(ctx, t, collapse(t.text).replace(/[;.,]$/, ""), [gapTarget]);
      }
      continue;
    }
    gapList = false;
    const texts: Text[] =
      block.type === "list"
        ? block.children.map((i) => listItemText(ctx.file, i))
        : block.type === "paragraph"
          ? [textOf(ctx.file, block)]
          : [];
    if (texts.length === 0) {
      // Readers that read tables take them out first: a table here is one no reader uses (issue 10: nothing
      // vanishes). It is kept as a note, with a warning.
      if (block.type !== "thematicBreak") {
        const t = textOf(ctx.file, block);
        report(ctx, "unread-text", spanOfText(ctx, t), { what: block.type, text: collapse(t.text).slice(0, 80) });
        if (block.type === "table") out.push(statement(ctx, t));
      }
      continue;
    }
    if (block.type === "paragraph") {
      // "**new.method**. Scope ..." under Versioning (or any heading but an Endpoints area) is no method there.
      const method = /^\*\*([a-z][\w]*(?:\.[\w*]+)+)\*\*(?:\s*\([^)]*\))?\s*[.:]/.exec(texts[0]?.text ?? "");
      if (method) {
        report(ctx, "method-outside-endpoints", spanOfText(ctx, sliceText(texts[0] ?? { text: "", start: 0 }, 0, method[0].length)), {
          name: method[1] ?? "",
          section: title,
        });
      }
    }
    for (const t of texts) {
      // A paragraph of several "X: not shown." lines holds one gap per sentence.
      const parts = sentences(t);
      const gaps = parts.filter((p) => NOT_SHOWN.test(collapse(p.text)));
      for (const g of gaps) {
        // "Not shown: a; b; c." names three things not shown, one gap each.
        const listed = /^Not shown:\s*(\S.*)$/i.exec(collapse(g.text));
        if (listed) for (const c of clauses(sliceText(g, g.text.indexOf(":") + 1))) addGap(ctx, c, collapse(c.text).replace(/[;.,]$/, ""), [gapTarget]);
        else addGap(ctx, g, (NOT_SHOWN.exec(collapse(g.text))?.[1] ?? "").trim(), [gapTarget]);
      }
      if (gaps.length === 0) out.push(statement(ctx, t));
      else for (const p of parts) if (!gaps.includes(p)) out.push(statement(ctx, p));
    }
  }
  return out;
}

/** A row's effect until the whole input is read: read/state-effects.ts reads it once the methods are known. */
const UNREAD: StateTransition["effect"] = { kind: "unread", method: null };

export function readStates(ctx: ReadContext, section: Section): { transitions: StateTransition[]; notes: Statement[] } {
  const transitions: StateTransition[] = [];
  const { tables, rest } = partitionTables(ctx, section.blocks, STATE_COLUMNS);
  for (const { h, rows } of tables) {
    for (const row of rows) {
      // A table with no Subject column is about its section's subject ("6.2 Public link of a generated document").
      const subjectAt = h.find(STATE_COLUMNS.subject);
      transitions.push({
        subject: subjectAt === null ? subjectOfSection(section) : cellText(row, subjectAt),
        trigger: cellText(row, h.find(STATE_COLUMNS.trigger)),
        condition: cellText(row, h.find(STATE_COLUMNS.condition)),
        next: cellText(row, h.find(STATE_COLUMNS.next)),
        also: cellText(row, h.find(STATE_COLUMNS.also)),
        effect: UNREAD,
        source: sourceOf(ctx, row[0] ?? { text: "", start: section.start }),
      });
    }
  }
  // Transitions as labelled bullets: "- Trigger: `m`.", "- Precondition: …", "- Result: …", and bullets that say
  // more (its `also`), under a bold subject ("**Pin flag `isPinned`**") or the section's own title.
  const others: RootContent[] = [];
  let subject: Text | null = null;
  /** The bold paragraph of `subject`: kept as a note when no transition follows it. */
  let subjectBlock: RootContent | null = null;
  const unused = () => {
    if (subjectBlock) others.push(subjectBlock);
    subject = null;
    subjectBlock = null;
  };
  const used = () => {
    subject = null;
    subjectBlock = null;
  };
  for (const [index, block] of rest.entries()) {
    if (block.type === "paragraph") {
      const t = textOf(ctx.file, block);
      const bold = /^\*\*(.+)\*\*$/.exec(t.text.trim());
      if (bold) {
        unused();
        subject = trimText(sliceText(t, 2, t.text.trim().length - 2));
        subjectBlock = block;
        continue;
      }
    }
    // A list whose items each state a transition in a sentence ("- **Widget handler** — `placement.bind` called while
    // …: …", "- `event.offline.get` with `clear=0` reserves a batch under `process_id`."); a "not shown" item stays a gap.
    // A list after a label ("Not shown:") is what the label says, not transitions.
    const prev = rest[index - 1];
    const afterLabel = prev?.type === "paragraph" && /:\**\s*$/.test(textOf(ctx.file, prev).text);
    if (block.type === "list" && !afterLabel && !block.children.some((i) => /^(?:\*\*)?Trigger:/.test(listItemText(ctx.file, i).text))) {
      const items = block.children.map((i) => listItemText(ctx.file, i));
      // The items' subject: a bold paragraph right before the list ("**Pin flag `isPinned`**"), else the section's title.
      const about = subject ? collapse(subject.text) : subjectOfSection(section);
      const read = items.map((t) => (NOT_SHOWN_ITEM.test(collapse(t.text)) ? null : proseTransition(collapse(t.text), about)));
      if (read.some((r) => r !== null)) {
        const notes: typeof block.children = [];
        for (const [i, r] of read.entries()) {
          const t = items[i];
          const item = block.children[i];
          if (r && t) {
            transitions.push({ ...r, effect: UNREAD, source: sourceOf(ctx, t) });
            place(ctx, t);
          } else if (item) notes.push(item);
        }
        if (notes.length > 0) others.push({ ...block, children: notes });
        used();
        continue;
      }
    }
    if (block.type === "list" && block.children.some((i) => /^(?:\*\*)?Trigger:/.test(listItemText(ctx.file, i).text))) {
      const labelled: Partial<Record<"trigger" | "condition" | "next", string>> = {};
      const also: string[] = [];
      const at = subject ?? { text: section.title, start: section.start };
      for (const item of block.children) {
        const t = listItemText(ctx.file, item);
        const m = /^(?:\*\*)?(Trigger|Preconditions?|Conditions?|Result|Next state)(?:\*\*)?:(?:\*\*)?\s*(.*)$/.exec(collapse(t.text));
        if (!m) {
          also.push(collapse(t.text));
          continue;
        }
        const label = (m[1] ?? "").toLowerCase();
        const key = label === "trigger" ? "trigger" : /^(?:pre)?conditions?$/.test(label) ? "condition" : "next";
        labelled[key] = (m[2] ?? "").replace(/\.$/, "");
        // "Result: `isPinned` becomes `N` in …": the next state is the value the subject's field becomes.
        if (key === "next") labelled.next = becomes(labelled.next ?? "", collapse((subject ?? { text: section.title }).text));
      }
      transitions.push({
        subject: collapse(at.text).replace(/^\d+(?:\.\d+)*\.?\s+/, ""),
        trigger: labelled.trigger ?? "",
        condition: labelled.condition ?? "",
        next: labelled.next ?? "",
        also: also.join("; "),
        effect: UNREAD,
        source: sourceOf(ctx, at),
      });
      used();
      continue;
    }
    unused();
    others.push(block);
  }
  unused();
  return { transitions, notes: readStatements(ctx, others, "states") };
}

/** A States subsection's title as the subject of its transitions: no numbering, no version mark. */
function subjectOfSection(section: Section): string {
  return collapse(section.title).replace(/^\d+(?:\.\d+)*\.?\s+/, "").replace(/\s*\((?:legacy|3\.0|v3)\)$/i, "");
}

/** A list item that is a gap of the section ("Task status transitions …: not shown."), not a transition. */
const NOT_SHOWN_ITEM = /\bnot shown\b/i;

/** "`isPinned` becomes `N` in the caller's task list" of the subject "Pin flag `isPinned`": "`N` in …". */
function becomes(next: string, subject: string): string {
  const m = /^`([^`]+)`\s+becomes\s+(?=`)/.exec(next);
  return m && subject.includes(`\`${m[1]}\``) ? next.slice(m[0].length) : next;
}

/**
 * A transition written as one list item (the States table's row in other hands): an optional bold subject, "(precondition:
 * …)", then the sentence of the trigger and the next state, and what more the item says.
 *
 *     **First successful call with a key** (precondition: the key length is valid) — the response is stored. A repeat …
 *     **Event handlers, application removed** — the handlers are deleted.
 *     **Widget handler** — `placement.bind` called while the installation is not finished: the handler is hidden.
 *     **Pin flag `isPinned`.** Calling `tasks.task.unpin`, when the caller has read access, sets the flag to `N`.
 *     `event.offline.get` with `clear=0` reserves a batch under `process_id`.
 *
 * Every word of the item lands in one of the five parts, in its order, so nothing it says is dropped; where the
 * sentence does not open with its trigger, the whole first sentence is the next state. Null (the item stays a note)
 * when it is empty, or has no bold subject and neither opens with a trigger nor with a call nor closes with "when `m`
 * is called", or opens with a trigger and then says something of the method ("`m` is idempotent").
 */
function proseTransition(text: string, sectionTitle: string): Omit<StateTransition, "source" | "effect"> | null {
  let s = text.trim();
  if (!s) return null;
  let subject = sectionTitle;
  let trigger = "";
  let condition = "";
  const bold = /^\*\*(.+?)\*\*/.exec(s);
  if (bold) {
    const b = (bold[1] ?? "").trim().replace(/[.:]$/, "");
    const comma = b.indexOf(", ");
    if (comma > 0) {
      subject = b.slice(0, comma);
      trigger = b.slice(comma + 2);
    } else if (/\bcalls?\b/i.test(b) && !/`/.test(b)) trigger = b;
    else subject = b;
    s = s.slice(bold[0].length).trim();
  }
  const pre = /^\((?:pre)?conditions?:\s*([^()]*)\)\s*/i.exec(s);
  if (pre) {
    condition = (pre[1] ?? "").trim();
    s = s.slice(pre[0].length);
  }
  s = s.replace(/^(?:—|–|-|:)\s*/, "");
  const [first = "", ...more] = splitSentences(s);
  let next = first;
  // "Calling `m`, …", "`m` with `clear=0` …", "The same method with status 0, …": the trigger opens the sentence.
  const opening = /^(?:Calling\s+)?((?:`[a-z][\w.]*`|(?:the )?same method)(?:\s+with\s+(?:status\s+\d+|`[^`]+`)(?:\s*\((?:the )?default\))?)?)/i.exec(first);
  // Without a bold subject, an item is a transition only where a trigger opens it and what follows is no statement
  // about the method ("`m` is idempotent", "`m` can …"), or where a call opens it ("The first successful call with a
  // key …"); any other bullet of the section ("Statuses are stored as integers.") is a note.
  const statement = opening ? /^\s+(?:is|are|was|were|has|have|can|cannot|may|must|should|does|do|needs?)\b/i.test(first.slice(opening[0].length)) : false;
  const byCall = /^(?:the |an? )?(?:first )?(?:successful )?calls?\s+(?:with|to|of)\b/i.test(first);
  // "The task moves to status 5 when `tasks.task.complete` is called.": the trigger closes the sentence.
  const closing = !opening ? /^(.+?),?\s+(?:when|once|after)\s+(`[a-z][\w.]*`)\s+is called\.?$/i.exec(first) : null;
  if (closing && !trigger) {
    trigger = closing[2] ?? "";
    const also = more.map((x) => x.replace(/\.$/, "").trim()).filter(Boolean);
    return { subject, trigger, condition, next: (closing[1] ?? "").trim(), also: also.join("; ") };
  }
  if (!bold && !trigger && (opening ? statement : !byCall)) return null;
  if (opening && !trigger) {
    trigger = (opening[1] ?? "").replace(/^the /i, "");
    let r = first.slice(opening[0].length);
    // ", when …, " / ", for a call that …, " / ", with `x` given, " / " called while …: ": the condition.
    // The condition runs to the clause's last comma: "when the poll is active, the revoting option is on and the
    // caller took part, withdraws the vote".
    const clause = r.split("; ")[0] ?? r;
    const lead = /^,\s*(?:when|while|for|under|if|with)\s+/i.exec(clause);
    const end = lead ? clause.lastIndexOf(", ") : -1;
    const called = /^\s+called\s+(?:while|when)\s+([^:]+):\s*/i.exec(r);
    if (lead && end > lead[0].length) {
      condition = [condition, clause.slice(lead[0].length, end).trim()].filter(Boolean).join("; ");
      r = r.slice(end + 2);
    } else if (called) {
      condition = [condition, (called[1] ?? "").trim()].filter(Boolean).join("; ");
      r = r.slice(called[0].length);
    }
    next = r.replace(/^,\s*/, "").trim();
  }
  // "the handlers are kept; binding the same handler again returns `ERROR_CORE`": the rest of the sentence says more.
  const semi = next.indexOf("; ");
  const also = [...(semi > 0 ? [next.slice(semi + 2)] : []), ...more].map((x) => x.replace(/\.$/, "").trim()).filter(Boolean);
  if (semi > 0) next = next.slice(0, semi);
  return { subject, trigger, condition, next: next.replace(/\.$/, "").trim(), also: also.join("; ") };
}

/** Sentences of a plain text: a full stop and a space end one, not inside backticks or parentheses. */
function splitSentences(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let tick = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "`") tick = !tick;
    else if (!tick && c === "(") depth++;
    else if (!tick && c === ")") depth = Math.max(0, depth - 1);
    else if (!tick && depth === 0 && c === "." && s[i + 1] === " ") {
      out.push(s.slice(start, i + 1).trim());
      start = i + 2;
    }
  }
  if (start < s.length) out.push(s.slice(start).trim());
  return out.filter(Boolean);
}

export function readAddressing(ctx: ReadContext, section: Section): { forms: AddressingForm[]; rules: Statement[] } {
  const forms: AddressingForm[] = [];
  const { tables, rest } = partitionTables(ctx, section.blocks, ADDRESSING_COLUMNS);
  for (const { h, rows } of tables) {
    for (const row of rows) {
      const form = cellText(row, h.find(ADDRESSING_COLUMNS.form));
      const pathCell = cellText(row, h.find(ADDRESSING_COLUMNS.path));
      const m = /^(?:(GET|POST|PUT|DELETE)\s+)?(\S+)\s*(.*)$/.exec(pathCell);
      forms.push({
        version: /^3\.0\b/.test(form) ? "v3" : "legacy",
        auth: /\bwebhook\b/i.test(form) ? "webhook" : "application",
        httpMethod: m?.[1] ?? null,
        path: m?.[2]?.replace(/;$/, "") ?? pathCell,
        notes: (m?.[3] ?? "").replace(/^[;\s]+/, "").split(/;\s*/).map(collapse).filter(Boolean).map((n) => n.replace(/^\((.*)\)$/, "$1")),
        source: sourceOf(ctx, row[0] ?? { text: "", start: section.start }),
      });
    }
  }
  return { forms, rules: readStatements(ctx, rest, "addressing") };
}

/** `crm.timeline.comment.get`, `.list` → both full names; "(and `crm.` variants)" adds the `crm.`-prefixed names. */
export function readFileRetrieval(ctx: ReadContext, section: Section): { rows: FileRetrievalRow[]; rules: Statement[] } {
  const rows: FileRetrievalRow[] = [];
  const { tables, rest } = partitionTables(ctx, section.blocks, FILE_COLUMNS);
  for (const { h, rows: cells } of tables) {
    for (const row of cells) {
      const methodsText = cellText(row, h.find(FILE_COLUMNS.method));
      const methods: string[] = [];
      let last = "";
      for (const m of methodsText.matchAll(/`([^`]+)`/g)) {
        const name = m[1] ?? "";
        if (name.startsWith(".") && last) methods.push(last.replace(/\.[^.]+$/, name));
        else if (/\.$/.test(name)) {
          // "(and `crm.` variants)": the same names under the prefix.
          for (const x of [...methods]) methods.push(`${name}${x}`);
        } else {
          methods.push(name);
          last = name;
        }
      }
      rows.push({
        where: cellText(row, h.find(FILE_COLUMNS.where)),
        methods,
        field: cellText(row, h.find(FILE_COLUMNS.field)),
        source: sourceOf(ctx, row[0] ?? { text: "", start: section.start }),
      });
    }
  }
  return { rows, rules: readStatements(ctx, rest, "file-retrieval") };
}

/** A status cell: a number, or empty, or "not shown" (a gap of the row's code); anything else is a warning. */
function statusCell(ctx: ReadContext, cell: Text | undefined, code = ""): number | null {
  const s = collapse(cell?.text ?? "");
  if (s === "") return null;
  if (/^\d{3}$/.test(s)) return Number(s);
  if (cell && /^not shown\.?$/i.test(s)) {
    addGap(ctx, cell, `HTTP status of ${code || "the error"}`, ["errors"]);
    return null;
  }
  if (cell) report(ctx, "bad-status", spanOfText(ctx, cell), { text: s });
  return null;
}

/** `| Status | Code | Text | Cause |` (system), `| Code | Status | Cause |` (3.0), `| Status | Code | When |` (auth). */
export function readCatalogueTable(ctx: ReadContext, table: Table, kind: CatalogueError["kind"]): CatalogueError[] {
  const { h, rows } = tableRows(ctx, table);
  warnErrorColumns(ctx, table, h);
  return rows.map((row) => {
    const words = errorWords((re) => cellText(row, h.find(re)));
    const text = words.text.replace(/^text\s+/, "");
    return {
      kind,
      status: statusCell(ctx, row[h.find(ERROR_COLUMNS.status) ?? -1], cellText(row, h.find(ERROR_COLUMNS.code)).replace(/`/g, "")),
      altStatus: null,
      code: cellText(row, h.find(ERROR_COLUMNS.code)).replace(/`/g, ""),
      text: text ? text.replace(/^`(.*)`$/, "$1") : null,
      cause: words.cause || null,
      source: sourceOf(ctx, row[h.find(ERROR_COLUMNS.code) ?? 0] ?? { text: "", start: 0 }),
    };
  });
}



/**
 * "An older description of the same list gives other statuses: INVALID_REQUEST 400, ... and adds
 * `ERROR_BATCH_METHOD_NOT_ALLOWED` (405, method not allowed in batch), ..." (codes in backticks or not; "It also
 * adds" as well as "and adds").
 */
export function readOlderStatuses(ctx: ReadContext, t: Text): OlderStatus[] | null {
  const s = collapse(t.text);
  if (!/^(?:An |The )?older description\b/i.test(s)) return null;
  const [head, adds] = s.split(/\b(?:and|also) adds\b/);
  const source = sourceOf(ctx, trimText(t));
  const out: OlderStatus[] = [];
  for (const m of (head ?? "").replace(/`/g, "").matchAll(/\b([A-Za-z_]+) (\d{3})\b/g)) out.push({ code: m[1] ?? "", status: Number(m[2]), cause: null, adds: false, source });
  for (const m of (adds ?? "").matchAll(/`([A-Za-z_]+)` \((\d{3})(?:,\s*([^)]*))?\)/g)) out.push({ code: m[1] ?? "", status: Number(m[2]), cause: m[3] ? collapse(m[3]) : null, adds: true, source });
  return out;
}

/**
 * A table of an older description's statuses: `| Code | Status in the older description |`, `| Code | Older HTTP |
 * Notes |`, or any catalogue table right after "An older description …" / "The older description also adds:".
 */
function readOlderTable(ctx: ReadContext, table: Table, adds: boolean): OlderStatus[] {
  const { h, rows } = tableRows(ctx, table);
  const statusAt = h.find(/\bolder\b/) ?? h.find(ERROR_COLUMNS.status);
  const codeAt = h.find(ERROR_COLUMNS.code) ?? 0;
  const causeAt = h.find(ERROR_COLUMNS.cause);
  const out: OlderStatus[] = [];
  for (const row of rows) {
    const status = /^\d{3}$/.exec(cellText(row, statusAt));
    if (!status) {
      if (statusAt !== null && row[statusAt]) report(ctx, "bad-status", spanOfText(ctx, row[statusAt]), { text: cellText(row, statusAt) });
      continue;
    }
    // "added in older list; method not allowed in batch": the words after the marker are the cause.
    const words = cellText(row, causeAt);
    const added = /^added in (?:the )?older (?:list|description)\s*[;:,]?\s*/i.exec(words);
    const cause = added ? words.slice(added[0].length) : words;
    out.push({ code: cellText(row, codeAt).replace(/`/g, ""), status: Number(status[0]), cause: cause || null, adds: adds || !!added, source: sourceOf(ctx, row[codeAt] ?? { text: "", start: 0 }) });
  }
  return out;
}

/**
 * The older statuses, once every errors section is read (they may stand in a subsection of their own): a code of the
 * system catalogue takes its older status as `altStatus`; a code it lacks is added after the system entries, with no
 * current status.
 */
export function applyOlderStatuses(catalogue: CatalogueError[], older: readonly OlderStatus[], unknown: (o: OlderStatus) => void): void {
  const system = new Map<string, CatalogueError>();
  for (const e of catalogue) if (e.kind === "system" && !system.has(e.code)) system.set(e.code, e);
  const added: CatalogueError[] = [];
  for (const o of older) {
    const entry = system.get(o.code);
    if (entry) {
      entry.altStatus = o.status;
      continue;
    }
    // A status for a code the list does not have, where the older description does not say it adds it.
    if (!o.adds) {
      unknown(o);
      continue;
    }
    const e: CatalogueError = { kind: "system", status: null, altStatus: o.status, code: o.code, text: null, cause: o.cause, source: o.source };
    system.set(o.code, e);
    added.push(e);
  }
  let last = -1;
  for (let i = 0; i < catalogue.length; i++) if (catalogue[i]?.kind === "system") last = i;
  catalogue.splice(last + 1, 0, ...added);
}

/** The error catalogue: system errors (the default, or under a title that says so) and 3.0 errors, and older statuses. */
export function readErrorsSection(ctx: ReadContext, section: Section): { catalogue: CatalogueError[]; notes: Statement[]; older: OlderStatus[] } {
  const catalogue: CatalogueError[] = [];
  const older: OlderStatus[] = [];
  const rest: RootContent[] = [];
  const title = collapse(section.title);
  let kind: CatalogueError["kind"] = /\b3\.0\b/.test(title) && !/\bsystem\b/i.test(title) ? "v3" : "system";
  // Under "Older status assignments", or after a paragraph on the older description that ends in a colon ("The older
  // description also adds:"), a table lists older statuses.
  const olderSection = /\bolder\b/i.test(title);
  let olderNext = olderSection;
  /** The paragraph before the table says the older description adds these codes. */
  let addsNext = false;
  for (const block of section.blocks) {
    if (block.type === "table") {
      const header = block.children[0];
      const olderColumn = header ? headerIndex(ctx, header).find(/\bolder\b/) !== null : false;
      if (olderNext || olderColumn) pushAll(older, readOlderTable(ctx, block, addsNext));
      else pushAll(catalogue, readCatalogueTable(ctx, block, kind));
      continue;
    }
    const t = textOf(ctx.file, block);
    const s = collapse(t.text);
    if (/^System errors\b/.test(s)) kind = "system";
    else if (/^3\.0 errors\b/.test(s)) kind = "v3";
    // The "older description" paragraph adds to the catalogue and stays a note as well.
    if (block.type === "paragraph") {
      const found = readOlderStatuses(ctx, t);
      if (found) pushAll(older, found);
      olderNext = (olderSection && !/^(?:System|3\.0) errors\b/.test(s)) || (/\bolder\b/i.test(s) && /:$/.test(s));
      addsNext = olderNext && /\badds\b/i.test(s) && /:$/.test(s);
    }
    rest.push(block);
  }
  return { catalogue, notes: readStatements(ctx, rest, "errors"), older };
}

/** "Limits": the table with numbers read out of values, then the rules. */
export function readLimits(ctx: ReadContext, section: Section): { table: Limit[]; rules: Statement[] } {
  const table: Limit[] = [];
  const { tables, rest } = partitionTables(ctx, section.blocks, LIMIT_COLUMNS);
  for (const { h, rows } of tables) {
    for (const row of rows) {
      const value = cellText(row, h.find(LIMIT_COLUMNS.value));
      const limit: Limit = {
        name: cellText(row, h.find(LIMIT_COLUMNS.limit)),
        value,
        appliesTo: cellText(row, h.find(LIMIT_COLUMNS.appliesTo)),
        source: sourceOf(ctx, row[0] ?? { text: "", start: section.start }),
      };
      // "1 to 255", and a range written with a dash ("1–255").
      const range = /^(\d+)(?: to |\s*[–—-]\s*)(\d+)\b/.exec(value);
      if (range) {
        limit.min = Number(range[1]);
        limit.max = Number(range[2]);
      }
      const upTo = /^up to (\d+)\b/.exec(value);
      if (upTo) limit.max = Number(upTo[1]);
      const def = /\bdefault (\d+)\b/.exec(value);
      if (def) limit.defaultValue = Number(def[1]);
      // "24 hours", and its short forms ("24 h", "1 sec").
      const single = /^(\d+) (hours?|h|seconds?|secs?|s|minutes?|mins?)\b/.exec(value);
      if (single) limit.max = Number(single[1]);
      table.push(limit);
    }
  }
  return { table, rules: readStatements(ctx, rest, "limits") };
}

/**
 * "Authentication": rules, the authorization failures table, and the methods that "need an application context
 * and fail for webhooks with `WRONG_AUTH_TYPE` (e.g. `a`, `b`)".
 */
export function readAuthentication(
  ctx: ReadContext,
  section: Section,
): { rules: Statement[]; catalogue: CatalogueError[]; applicationContext: Array<{ name: string; source: Statement["source"] }> } {
  const catalogue: CatalogueError[] = [];
  const rest: RootContent[] = [];
  const applicationContext: Array<{ name: string; source: Statement["source"] }> = [];
  for (const block of section.blocks) {
    if (block.type === "table") {
      pushAll(catalogue, readCatalogueTable(ctx, block, "auth"));
      continue;
    }
    rest.push(block);
  }
  const rules = readStatements(ctx, rest, "authentication");
  for (const rule of rules) {
    // "Some methods need an application context and fail for webhooks with `WRONG_AUTH_TYPE` (e.g. `a`, `b`)", and
    // in other words: "… require an application context and reject webhook calls with `WRONG_AUTH_TYPE`. Examples:
    // `a`, `b`.", "Webhooks fail w/ `WRONG_AUTH_TYPE` on methods needing app context, e.g. `a`, …". The methods are
    // the dotted names after the examples' marker.
    // The sentence that names `WRONG_AUTH_TYPE` says the methods need the context, in no negation ("… is never
    // returned by methods that do not need an application context, e.g. …" names none).
    const said = rule.text.split(/(?<=\.)\s+(?=[A-Z])/).find((x) => x.includes("`WRONG_AUTH_TYPE`")) ?? "";
    if (!/\b(?:need|needs|needing|require|requires|requiring)\b[^.]*?\b(?:application|app) context\b/i.test(said)) continue;
    if (/\b(?:never|not|no|without|except|unless)\b|n't\b/i.test(said)) continue;
    const marker = /\(e\.g\.\s*([^)]*)\)|\b(?:e\.g\.|for example|examples?:)\s*(.*)$/i.exec(rule.text);
    if (!marker) continue;
    for (const x of (marker[1] ?? marker[2] ?? "").matchAll(/`([a-z][\w]*(?:\.[\w]+)+)`/g)) applicationContext.push({ name: x[1] ?? "", source: rule.source });
  }
  return { rules, catalogue, applicationContext };
}
