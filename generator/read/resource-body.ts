import type { Resource } from "../model/types.js";
import { type Text, sliceText, trimText } from "../parse/markdown.js";
import { type ReadContext, collapse, report, sentences, sourceOf, spanOfText, splitTop, statement } from "./inline.js";
import { UNKNOWN, readTypePhrase } from "./types.js";
import { balancedParenGroup } from "../util/parens.js";
import { pushAll } from "../util/arrays.js";
import { fillFieldSources, keysObject, readFieldList } from "./field-lists.js";
import { SEE_METHOD, SEE_PARAMS, fieldsOf, members, nullableByPrefix, readGapSentence, titledResource } from "./resource-parts.js";

/**
 * A resource written as one paragraph or bullet rather than a section: `**Title** (\`m\` item): fields…` and the
 * "Other resources" list's bullets (spec-source/README.md#resources), with the text after the title read as a
 * resource's body: field lists, "see `m` in Endpoints", typing sentences, notes.
 */

/**
 * A paragraph that opens with a resource's title in bold and its parentheses: `**Title** (\`m\` item)`, then its
 * fields after a colon or a dash (read as a resource bullet's), or sentences after a full stop (its notes).
 */
export function readTitledParagraph(ctx: ReadContext, t: Text): Resource | null {
  const bold = /^\*\*([^*]+?):?\*\*/.exec(t.text);
  // A bold label of a note is no resource's title: the paragraph stays unread, with its warning.
  if (!bold || /^(?:notes?|warnings?|important|tip|info|not shown|see also|examples?)$/i.test((bold[1] ?? "").trim())) return null;
  let end = bold[0].length;
  let title = bold[1] ?? "";
  // The parentheses after the bold title belong to it: "(`user.current`)", "(`placement.get` item; camelCase)".
  for (;;) {
    const space = /^\s*/.exec(t.text.slice(end))?.[0].length ?? 0;
    if (t.text[end + space] !== "(") break;
    const group = balancedParenGroup(t.text, end + space);
    if (!group) break;
    title = `${title} ${t.text.slice(end + space, group.end)}`;
    end = group.end;
  }
  const r = titledResource(ctx, collapse(title), t);
  ctx.subject = { resource: r.name };
  const after = trimText(sliceText(t, end));
  const sep = /^(?::|—|–|→|-(?=\s))\s*/.exec(after.text);
  if (sep) {
    const body = trimText(sliceText(after, sep[0].length));
    if (body.text) readResourceBody(ctx, r, body);
  } else {
    const notes = trimText(sliceText(after, /^\.\s*/.exec(after.text)?.[0].length ?? 0));
    for (const sentence of sentences(notes)) {
      if (readGapSentence(ctx, sentence, [`resource:${r.name}`])) continue;
      r.notes.push(statement(ctx, sentence));
    }
  }
  ctx.subject = undefined;
  return r;
}

function titleEnd(s: string): number {
  let depth = 0;
  let inCode = false;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "`") inCode = !inCode;
    if (inCode) continue;
    if (s[i] === "(") depth++;
    else if (s[i] === ")") depth--;
    else if (s[i] === ":" && depth === 0) return i;
  }
  return -1;
}

/**
 * "Title (`method` item; notes): fields. Sentences." / "Title: see `method` in Endpoints." /
 * "External line: result of add is an object with `ID` (integer)."
 */
export function readResourceBullet(ctx: ReadContext, t: Text): Resource | null {
  const colon = titleEnd(t.text);
  if (colon < 0) {
    report(ctx, "unread-text", spanOfText(ctx, t), { what: "resource bullet", text: collapse(t.text).slice(0, 80) });
    return null;
  }
  const title = collapse(t.text.slice(0, colon));
  const r = titledResource(ctx, title, t);
  readResourceBody(ctx, r, trimText(sliceText(t, colon + 1)));
  return r;
}

/**
 * What a resource bullet says after its title, read into `r`: a field list ("ID, NAME (strings)"), "object of
 * localized strings with keys …", "result of add is an object with `ID` (integer)", "see `m` in Endpoints", and
 * sentences of the field properties. Another author's lead-in words come off first: "Fields:", "obj of localized
 * strs, keys:", "an object of … with the keys …".
 */
export function readResourceBody(ctx: ReadContext, r: Resource, written: Text): void {
  const lead = /^(?:(?:the )?fields(?: are)?\s*:?\s+|—\s*|-\s+)/i.exec(written.text);
  const body = lead ? trimText(sliceText(written, lead[0].length)) : written;
  const [first, ...rest] = sentences(body);
  if (!first) return;
  const s = collapse(first.text)
    .replace(/^an? /, "")
    .replace(/^obj of (?:localized )?strs,? keys:?/, "object of localized strings with keys")
    // A developer's "add result = obj w/ `ID` (int)": "the result of adding is an object with …".
    .replace(/^([a-z]+) result\s*=\s*obj(?:ect)?\s+(?:w\/|with)\s+/, "result of $1ing is an object with ")
    .replace(/ with the keys:? /, " with keys ")
    // "keyed by `ID`, `SITE_ID`": a list of the keys themselves, not what the keys are.
    .replace(/^(object of [a-z ]*?(?:strings|integers|numbers|booleans)) keyed by (?=`[^`]+`\s*,\s*`)/, "$1 with keys ");
  const see = SEE_METHOD.exec(s);
  const typedKeys = /^object of ([a-z ]*?)(strings|integers|numbers|booleans) with keys (.*)$/.exec(s);
  if (typedKeys) {
    const word = readTypePhrase(typedKeys[2] ?? "")?.type ?? UNKNOWN;
    r.type = keysObject(typedKeys[3] ?? "", word);
    fillFieldSources(members(r), sourceOf(ctx, first));
    r.description = collapse(first.text);
    for (const f of members(r)) f.required = true;
    for (const sentence of rest) r.notes.push(statement(ctx, sentence));
    return;
  }
  // "The result of adding an external line is an object with `ID` (integer)"; also "of adding a line
  // (`telephony.externalLine.add`)", which names the method, and "an object containing".
  const resultOf = /^(?:the )?result of (\w+?)(?:ing)?(?: an? [\w ]+?)?(?: \(`([a-z][\w.]*)`\))? is an object (?:with|containing) (.*)$/i.exec(s);
  if (see) {
    r.notes.push(statement(ctx, first));
    r.type = { kind: "unresolved", by: "see", text: see[1] ?? see[2] ?? "" };
  } else if (resultOf) {
    r.notes.push(statement(ctx, first));
    if (resultOf[2]) r.returnedBy.push(resultOf[2]);
    else r.returnedByVerb = resultOf[1] ?? "";
    // Words first, spaces after them: a pattern that opens with spaces would rescan a long run of them at each place.
    const joint = /\bis\s+an\s+object\s+(?:with|containing)\s+|=\s*obj(?:ect)?\s+(?:w\/|with)\s+/.exec(first.text);
    const listAt = joint ? joint.index + joint[0].length : first.text.length;
    pushAll(fieldsOf(ctx, r, first), readFieldList(resultOf[3] ?? "", null, undefined, trimText(sliceText(first, listAt)), ctx).fields);
  } else {
    // "CODE, HANDLER, NAME, DESCRIPTION; see Endpoints" keeps the pointer as a note; so does "… → see Endpoints".
    // The arrow first, then the spaces around it: a pattern that starts with spaces would rescan a long run of them.
    const arrow = /(?:→|->|—)[ \t\n]*(?=see\b)/i.exec(first.text);
    const parts = splitTop(first, (x, i) => (x[i] === ";" ? 1 : 0));
    const [list, ...tail] = arrow && parts.length === 1 ? [trimText({ text: first.text.slice(0, arrow.index), start: first.start }), trimText(sliceText(first, arrow.index + arrow[0].length))] : parts;
    if (list) pushAll(fieldsOf(ctx, r, list), readFieldList(list.text, null, undefined, list, ctx).fields);
    for (const x of tail) {
      r.notes.push(statement(ctx, x));
      if (SEE_PARAMS.test(collapse(x.text))) {
        r.type = { kind: "object", members: fieldsOf(ctx, r, x) };
        r.fieldsAreParams = true;
      }
    }
  }
  for (const sentence of rest) {
    const x = collapse(sentence.text);
    nullableByPrefix(r, x);
    // Only of a resource of fields: "see `m` in Endpoints" leaves its type for later (a method's bullet moved among
    // the resources, "Scope `placement` (depends on the placement point)", made this throw: found by a mutated spec).
    if (/\bdepends on\b/.test(x) && r.type.kind === "object") for (const f of r.type.members) f.required = false;
    if (readGapSentence(ctx, sentence, [`resource:${r.name}`])) continue;
    r.notes.push(statement(ctx, sentence));
  }
}
