import type { RootContent } from "mdast";
import type { StateTransition, Statement } from "../model/types.js";
import { type Section, type Text, listItemText, sliceText, textOf, trimText } from "../parse/markdown.js";
import { type ReadContext, collapse, place, sourceOf } from "./inline.js";
import { STATE_COLUMNS, cellText, partitionTables } from "./tables.js";
import { readStatements } from "./sections.js";

/**
 * The States section (spec-source/README.md#sections): its table's rows and its prose ("`X` becomes `Y` when …") as
 * transitions of a subject, each with the effect read/state-effects.ts reads from its words; what is neither is a
 * note of the section.
 */

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
