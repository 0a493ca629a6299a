import type { Envelope, Field, TypeRef } from "../model/types.js";
import { type Section, type Text, listItemText, textOf } from "../parse/markdown.js";
import { readNameCell } from "./facts.js";
import { type ReadContext, collapse, report, sourceOf, spanOfText, statement } from "./inline.js";
import { cellText, tableRows } from "./tables.js";
import { field, readTypePhrase } from "./types.js";

/**
 * "Response envelope": the members table, the `time` table after "Object `time`:", the legacy error body; in another
 * author's layout too: a name cell `` `start` `` or `**start**<br>\`number\``, a Key/Name column and a
 * Description/Notes column, the lead-ins "The `time` object:" and "`time`:", a member as a paragraph
 * ("**`result`** — object, array, boolean or integer"), the error body as a table or a list after "Legacy error
 * body:" or under a heading of that name, and a section of its own for each part ("4.2 Legacy error body").
 */
export function readEnvelope(ctx: ReadContext, section: Section, into?: Envelope): Envelope {
  const env: Envelope = into ?? { members: [], time: [], legacyErrorBody: [], notes: [], source: sourceOf(ctx, { text: section.title, start: section.start }) };
  let target: "members" | "time" | "legacyErrorBody" = /\berror body\b/i.test(section.title) ? "legacyErrorBody" : "members";
  const push = (f: Field) => {
    if (target === "legacyErrorBody") f.type = errorCodePattern(f.type, f.description);
    env[target].push(f);
  };
  for (const block of section.blocks) {
    if (block.type === "table") {
      const { h, rows } = tableRows(ctx, block);
      const typeAt = h.find(/^type(?: \/ format)?$/);
      for (const row of rows) {
        const whole = row[h.find(/^(?:member|field|name|key)$/) ?? 0];
        if (!whole) continue;
        const cell = readNameCell(whole, typeAt !== null);
        if (cell.name === null) {
          report(ctx, "unread-text", spanOfText(ctx, cell.cell), { what: "envelope member", text: collapse(cell.cell.text).slice(0, 80) });
          continue;
        }
        const typeText = cell.lineType ? collapse(cell.lineType.text).replace(/`/g, "") : cellText(row, typeAt);
        push(envelopeField(ctx, cell.name, typeText, cellText(row, h.find(/^(?:meaning|description|notes?)$/)), cell.cell));
      }
      continue;
    }
    if (block.type === "list" && target === "legacyErrorBody") {
      // "- `error` — `string` made of digits …": a member a bullet.
      for (const item of block.children) {
        const t = listItemText(ctx.file, item);
        const m = /^`([A-Za-z_]\w*)`\s*(?:—|–|-|:)\s*(.*)$/.exec(collapse(t.text));
        if (!m) {
          report(ctx, "unread-text", spanOfText(ctx, t), { what: "bullet", text: collapse(t.text).slice(0, 80) });
          continue;
        }
        push(envelopeField(ctx, m[1] ?? "", (m[2] ?? "").replace(/`/g, ""), "", t));
      }
      continue;
    }
    const t = textOf(ctx.file, block);
    const s = collapse(t.text);
    if (/^(?:Object `time`|The `time` object|`time`)\s*:?$/.test(s)) {
      target = "time";
      env.notes.push(statement(ctx, t));
      continue;
    }
    const body = /^Legacy error body:\s*(.*)$/.exec(s);
    if (body) {
      if (body[1]) env.legacyErrorBody = readErrorBody(ctx, t);
      else target = "legacyErrorBody";
      env.notes.push(statement(ctx, t));
      continue;
    }
    // "**`result`** — object, array, boolean or integer, depending on the method. …" / "**`time`** — object with timing
    // data:": a member written as a paragraph; one that ends in a colon opens the table of its own members.
    const member = /^\*\*`([A-Za-z_]\w*)`\*\*\s*(?:—|–|-|:)\s*(.*)$/.exec(s);
    if (member && target === "members" && block.type === "paragraph") {
      const name = member[1] ?? "";
      const [typeWords, ...rest] = (member[2] ?? "").split(/\.\s+/);
      env.members.push(envelopeField(ctx, name, (typeWords ?? "").replace(/:$/, "").replace(/,?\s*depending on the method$/, " (depends on method)"), rest.join(". "), t));
      if (/:$/.test(s) && name === "time") target = "time";
      continue;
    }
    // "Some errors add extra members, e.g. `argument` with …" after the error body's table: its optional member.
    const extra = target === "legacyErrorBody" ? /\bextra members\b.*?`([a-z_]+)`/.exec(s) : null;
    if (extra) {
      env.legacyErrorBody.push(field({ name: extra[1] ?? "", type: { kind: "primitive", type: "string" }, required: false, optional: true, description: s, source: sourceOf(ctx, t) }));
      env.notes.push(statement(ctx, t));
      continue;
    }
    if (block.type === "paragraph") env.notes.push(statement(ctx, t));
    else report(ctx, "unread-text", spanOfText(ctx, t), { what: block.type, text: s.slice(0, 80) });
  }
  return env;
}

/** One member of the envelope: its type phrase, the words after it, and "absent in some" for an optional member. */
function envelopeField(ctx: ReadContext, name: string, typeText: string, meaning: string, at: Text): Field {
  const tp = readTypePhrase(typeText);
  const rest = tp ? typeText.slice(tp.length).trim() : typeText;
  const f = field({
    name,
    type: tp?.type ?? { kind: "unknown" },
    required: true,
    nullable: tp?.nullable ?? false,
    description: collapse([rest.replace(/^\((.*)\)$/, "$1"), meaning].filter(Boolean).join("; ")),
    source: sourceOf(ctx, at),
  });
  if (/\babsent (?:in|from) some\b/.test(`${rest} ${meaning}`)) {
    f.required = false;
    f.optional = true;
  }
  return f;
}

/** "digits, Latin letters and underscore" (and "may be empty") is the pattern of the error code. */
function errorCodePattern(type: TypeRef, description: string): TypeRef {
  if (type.kind !== "primitive" || !/digits, Latin letters,? (?:and )?underscore/.test(description)) return type;
  return { ...type, pattern: /may be empty/.test(description) ? "^[0-9A-Za-z_]*$" : "^[0-9A-Za-z_]+$" };
}

/**
 * "`error` (string; digits, Latin letters and underscore; may be empty, ...) and `error_description` (string, ...).
 * Some errors add extra members, e.g. `argument` with the name of the faulty parameter."
 */
function readErrorBody(ctx: ReadContext, t: Text): Field[] {
  const s = collapse(t.text);
  const out: Field[] = [];
  for (const m of s.matchAll(/`([a-z_]+)` \(([^()]*)\)/g)) {
    const inner = m[2] ?? "";
    const tp = readTypePhrase(inner);
    const description = collapse(tp ? inner.slice(tp.length).replace(/^[;,\s]+/, "") : inner);
    const type = errorCodePattern(tp?.type ?? { kind: "unknown" as const }, description);
    out.push(
      field({
        name: m[1] ?? "",
        type,
        required: true,
        description,
        source: sourceOf(ctx, { text: m[0], start: t.start + (t.text.indexOf(m[0]) >= 0 ? t.text.indexOf(m[0]) : 0) }),
      }),
    );
  }
  const extra = /extra members, e\.g\. `([a-z_]+)` with ([^.]*)/.exec(s);
  if (extra) {
    out.push(
      field({
        name: extra[1] ?? "",
        type: { kind: "primitive", type: "string" },
        required: false,
        optional: true,
        description: collapse(extra[2] ?? ""),
        source: sourceOf(ctx, t),
      }),
    );
  }
  return out;
}
