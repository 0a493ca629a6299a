import type { Field, TypeRef } from "../model/types.js";
import { type Text, sliceText, trimText } from "../parse/markdown.js";
import { type ReadContext, clauses, collapse, report, sentences, sourceOf, spanOfText, splitTop } from "./inline.js";
import {
  UNKNOWN,
  field,
  literalFor,
  readDefault,
  readTypePhrase,
  readValueList,
  suspiciousTypeWord,
} from "./types.js";
import { firstParenGroup } from "../util/parens.js";

/**
 * Reads parameter clauses (spec-source/README.md#parameters):
 *
 *     `taskId`* integer, the task id.
 *     `NAME`, `DESCRIPTION`, `KEYWORDS` (comma separated) strings.
 *     `status` integer, `1` enable (default), `0` disable.
 *     `CRM_AUTO_CREATE` string `Y` or `N`, default `Y` (auto-creates CRM objects on outgoing calls).
 *     `VISIBLE` (visibility in the list), `OPENED` (open for free joining)
 *
 * A clause is a parameter when it starts with one or more backticked identifiers (each may carry `*` and a
 * parenthesis) followed by a type phrase, punctuation, a parenthesis or a description, but not by a verb
 * ("`CHAT_ID` is returned by default" is a note).
 */

const NAME_ITEM = /^`([A-Za-z_][A-Za-z0-9_.]*)`(\*)?(\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\))?/;
const VERB_AFTER_NAME =
  /^(is|are|was|were|must|plus|means|holds|has|have|gives|returns|becomes|may|can|and|or|with|as|to|in|on|of|from)\b/;

interface NameItem {
  name: string;
  required: boolean;
  paren: string | null;
  at: Text;
}

/** The backticked names at the start of a clause, or null when the clause does not start a parameter. */
export function readNameList(t: Text): { items: NameItem[]; rest: Text } | null {
  const items: NameItem[] = [];
  let pos = 0;
  const s = t.text;
  for (;;) {
    const m = NAME_ITEM.exec(s.slice(pos));
    if (!m) break;
    items.push({ name: m[1] ?? "", required: m[2] === "*", paren: m[4] ?? null, at: sliceText(t, pos, pos + m[0].length) });
    pos += m[0].length;
    const sep = /^(\s*,\s*|\s+and\s+)(?=`)/.exec(s.slice(pos));
    if (!sep) break;
    pos += sep[0].length;
  }
  if (items.length === 0) return null;
  const rest = trimText(sliceText(t, pos));
  if (VERB_AFTER_NAME.test(rest.text) || /^[a-z]+\s+(are|is)\b/.test(rest.text)) return null;
  return { items, rest };
}

/**
 * "`type` string (`min`, `hour`), `count` integer": a comma before a name and a type word starts a new parameter,
 * unless everything before it is names ("`PROJECT_DATE_START`, `PROJECT_DATE_FINISH` ISO 8601").
 */
function splitParamCommas(t: Text): Text[] {
  let from = 0;
  return splitTop(t, (s, i) => {
    if (s[i] !== ",") return 0;
    const m = /^,\s*(?=`[A-Za-z_]\w*`\*?\s+(?:integer|number|string|boolean|object|array|ISO 8601|Base64)\b)/.exec(s.slice(i));
    if (!m) return 0;
    if (/^(\s*`[^`]+`\*?\s*(\([^()]*\))?\s*,?)*$/.test(s.slice(from, i))) return 0;
    from = i + m[0].length;
    return m[0].length;
  });
}

/** "(from `x`)" → "from `x`": a description that is one parenthesis loses it. */
function unwrap(s: string): string {
  const m = /^\(([^()]*)\)$/.exec(s.trim());
  return m ? (m[1] ?? "").trim() : s;
}

export interface ParamReadResult {
  params: Field[];
  /** Sentences of the text that are not parameters, for the caller to classify. */
  others: Text[];
}

function typeFromParen(paren: string): { type: TypeRef; nullable: boolean; description: string } | null {
  const tp = readTypePhrase(paren);
  if (!tp) return null;
  const rest = paren.slice(tp.length).replace(/^[\s,;:]+/, "");
  return { type: tp.type, nullable: tp.nullable, description: rest };
}

/** Turns the rest of a parameter clause (after its names) into type, description and default. */
function readClauseRest(
  ctx: ReadContext,
  rest: Text,
): { type: TypeRef; nullable: boolean; description: string; default?: Field["default"]; plural: boolean } {
  const s = rest.text.replace(/^:\s*/, "");
  const tp = readTypePhrase(s);
  if (!tp) {
    const word = suspiciousTypeWord(s);
    if (word) report(ctx, "unknown-type", spanOfText(ctx, rest), { word });
    return { type: UNKNOWN, nullable: false, description: collapse(s.replace(/^[,;:]\s*/, "")), plural: false };
  }
  let type = tp.type;
  const description = collapse(s.slice(tp.length).replace(/^\s*[,;:]?\s*/, ""));
  // "integer, `1` enable (default), `0` disable": allowed values listed right after the type.
  // "string (`min`, `hour`, `day`)": the list may stand in a parenthesis.
  const values = type.kind === "primitive" && !type.enum ? readValueList(description.replace(/^\((.*)\)$/, "$1")) : null;
  if (values && type.kind === "primitive") {
    const t = type;
    type = { ...t, enum: values.map((v) => literalFor(t, v)) };
  }
  const def = tp.default ?? readDefault(ownWords(description), type);
  const plural = /^(integers|numbers|strings|booleans|objects|arrays)\b/i.test(s);
  return { type, nullable: tp.nullable, description, ...(def ? { default: def } : {}), plural };
}

/**
 * Reads the parameter clauses of a run of text (a bullet, a paragraph or the `Optional:` list). Clauses that
 * do not start a parameter continue the description of the last one when they name no other parameter, and are
 * returned in `others` otherwise.
 */
export function readParams(ctx: ReadContext, t: Text, options: { optional?: boolean } = {}): ParamReadResult {
  const params: Field[] = [];
  const others: Text[] = [];
  for (const sentence of sentences(t)) {
    let paramInSentence = false;
    for (const clause of clauses(sentence).flatMap(splitParamCommas)) {
      const names = /^at least one of\b/i.test(clause.text) ? null : readNameList(clause);
      if (!names) {
        const last = params[params.length - 1];
        const known = new Set(params.map((p) => p.name));
        const mentioned = [...clause.text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
        const namesOther = mentioned.some((n) => known.has(n) && n !== last?.name);
        const continues =
          last &&
          !/\bat least one of\b/i.test(clause.text) &&
          !/^Parameters\b/.test(clause.text) &&
          (paramInSentence || !namesOther);
        if (last && continues) {
          last.description = collapse(`${last.description}${last.description ? "; " : ""}${clause.text}`);
          const def = last.default ?? readDefault(ownWords(clause.text), last.type);
          if (def) last.default = def;
        } else {
          others.push(clause);
        }
        continue;
      }
      paramInSentence = true;
      const restInfo = readClauseRest(ctx, names.rest);
      for (const [i, item] of names.items.entries()) {
        const isLast = i === names.items.length - 1;
        const fromParen = item.paren ? typeFromParen(item.paren) : null;
        let type = restInfo.type;
        let nullable = restInfo.nullable;
        let description = isLast ? unwrap(restInfo.description) : "";
        if (fromParen && (fromParen.type.kind !== "unknown")) {
          type = fromParen.type;
          nullable = fromParen.nullable;
          description = fromParen.description;
        } else if (item.paren) {
          const values = readValueList(item.paren);
          if (values && type.kind === "primitive") {
            const t0 = type;
            type = { ...t0, enum: values.map((v) => literalFor(t0, v)) };
          } else description = collapse([item.paren, description].filter(Boolean).join("; "));
          description = unwrap(description);
        }
        // One type phrase after several names types all of them only when it is plural or the names share it.
        if (!isLast && !restInfo.plural && !fromParen && names.items.length > 1 && restInfo.type.kind !== "unknown") {
          type = restInfo.type;
        }
        const deprecated = /\b(obsolete|deprecated)\b/i.test(description) ? { text: description } : undefined;
        const def = isLast ? restInfo.default : fromParen ? readDefault(fromParen.description, type) : undefined;
        params.push(
          field({
            name: item.name,
            type: fillSources(type, sourceOf(ctx, item.at)),
            required: item.required && !options.optional,
            nullable,
            description,
            ...(def ? { default: def } : {}),
            ...(deprecated ? { deprecated } : {}),
            source: sourceOf(ctx, item.at),
          }),
        );
      }
    }
  }
  // An object's shape is told across its clauses ("object: key is the setting name; value is an object with ...").
  for (const p of params) {
    if (p.type.kind === "object") p.type = fillSources(objectDetails(p.type, p.description), p.source);
    const extensions = /\bextensions?\s+((?:`[^`]+`(?:,\s*|\s+or\s+|\s+and\s+)?)+)/i.exec(p.description);
    if (extensions) p.fileExtensions = [...(extensions[1] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
  }
  return { params, others };
}

/** A default inside a member's parenthesis ("member `minTimeout` (..., default 1)") is the member's, not ours. */
function ownWords(description: string): string {
  return description.replace(/member `[^`]+`\s*\([^)]*\)/g, "");
}

/** `| Parameter | Type | Required | Meaning |` and `| Member | Type | Meaning / allowed values |` rows. */
export function paramFromRow(
  ctx: ReadContext,
  cells: { name: Text; type: Text; required?: Text; meaning?: Text },
): Field | null {
  const nameMatch = /^`?([A-Za-z_][A-Za-z0-9_.]*)`?(\*)?$/.exec(cells.name.text);
  if (!nameMatch) {
    report(ctx, "unreadable-parameter", spanOfText(ctx, cells.name), { text: cells.name.text });
    return null;
  }
  const typeText = cells.type.text;
  const tp = readTypePhrase(typeText);
  let type: TypeRef = tp?.type ?? UNKNOWN;
  if (!tp && typeText) {
    const word = suspiciousTypeWord(typeText) ?? (typeText.includes(" ") ? null : typeText);
    if (word) report(ctx, "unknown-type", spanOfText(ctx, cells.type), { word });
  }
  const meaning = collapse(cells.meaning?.text ?? "");
  const values = type.kind === "primitive" ? readValueList(meaning) : null;
  if (values && type.kind === "primitive") {
    const t0 = type;
    type = { ...t0, enum: values.map((v) => literalFor(t0, v)) };
  }
  if (type.kind === "object") type = fillSources(objectDetails(type, meaning), sourceOf(ctx, cells.name));
  const required = nameMatch[2] === "*" || /^(yes|required|\*|true)$/i.test(cells.required?.text.trim() ?? "");
  const def = readDefault(meaning, type);
  return field({
    name: nameMatch[1] ?? "",
    type,
    required,
    nullable: tp?.nullable ?? false,
    description: meaning,
    ...(def ? { default: def } : {}),
    source: sourceOf(ctx, cells.name),
  });
}

/**
 * What an object parameter's description says of its shape: "key is the setting name; value is an object with
 * `TYPE` (...) and `VALUE` (...)", "`{field: ASC|DESC}`", "keys `user<id>` or `group<id>`, value a calendar id",
 * "members `fullDay` and `withTime`, each an array of reminders", "keyed by language code with `TITLE`, ...",
 * "member `minTimeout` (..., default 1)", "for example `errorHandlerUrl`" (other members may come).
 */
export function objectDetails(type: Extract<TypeRef, { kind: "object" }>, description: string): TypeRef {
  let out: Extract<TypeRef, { kind: "object" }> = { ...type };
  const named = (list: string): Field[] =>
    [...list.matchAll(/`([A-Za-z_]\w*)`\s*(?:\(((?:[^()]|\([^()]*\))*)\))?/g)].map((x) =>
      field({ name: x[1] ?? "", type: UNKNOWN, description: collapse(x[2] ?? ""), source: NO_SOURCE }),
    );
  let m = /\bkey is (?:the )?([^;]+); value is an object with (.*)$/.exec(description);
  if (m) out = { ...out, keyDescription: collapse(m[1] ?? ""), additional: { kind: "object", members: named(m[2] ?? "") } };
  m = /^`\{(\w+):\s*([^`}]+)\}`/.exec(description);
  if (m) {
    const values = (m[2] ?? "").split("|").map((v) => v.trim());
    out = {
      ...out,
      keyDescription: m[1] ?? "",
      additional:
        values.length > 1 && values.every((v) => /^[A-Z][A-Z0-9_]*$/.test(v)) ? { kind: "primitive", type: "string", enum: values } : UNKNOWN,
    };
  }
  m = /^keys ((?:`[^`]+`(?:\s+or\s+|\s*,\s*)?)+),\s*value (.+)$/.exec(description);
  if (m) {
    const keys = [...(m[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? "");
    out = { ...out, keyDescription: keys.join(" or "), additional: { kind: "unknown", note: collapse(m[2] ?? "") } };
  }
  m = /^members ((?:`[^`]+`(?:\s+and\s+|\s*,\s*)?)+),\s*each (?:an? )?(.+)$/.exec(description);
  if (m) {
    const tp = readTypePhrase((m[2] ?? "").trim());
    const members = [...(m[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) =>
      field({ name: x[1] ?? "", type: tp?.type ?? UNKNOWN, description: collapse(m?.[2] ?? ""), source: NO_SOURCE }),
    );
    out = { ...out, members: [...out.members, ...members] };
  }
  m = /^keyed by ([^;,]+?) with ((?:`[^`]+`(?:\s*,\s*|\s+and\s+)?)+)/.exec(description);
  if (m) out = { ...out, keyDescription: collapse(m[1] ?? ""), additional: { kind: "object", members: named(m[2] ?? "") } };
  const memberAt = /member `([A-Za-z_]\w*)`\s*\(/.exec(description);
  const memberGroup = memberAt ? firstParenGroup(description, memberAt.index + memberAt[0].length - 1) : null;
  if (memberAt && memberGroup && memberGroup.start === memberAt.index + memberAt[0].length - 1) {
    const desc = collapse(memberGroup.inner);
    const def = readDefault(desc, UNKNOWN);
    const member = field({ name: memberAt[1] ?? "", type: UNKNOWN, description: desc, ...(def ? { default: def } : {}), source: NO_SOURCE });
    out = { ...out, open: true, members: [...out.members, member] };
  }
  if (/\bfor example\b|\bdepends on\b/.test(description)) out.open = true;
  return out;
}

/** Members read out of a description take the parameter's position; `fillSources` sets it. */
const NO_SOURCE = { file: "", line: 0, column: 0 };

export function fillSources(type: TypeRef, source: Field["source"]): TypeRef {
  switch (type.kind) {
    case "object":
      return {
        ...type,
        members: type.members.map((m) => ({
          ...m,
          source: m.source.line === 0 ? source : m.source,
          type: fillSources(m.type, source),
        })),
        ...(type.additional ? { additional: fillSources(type.additional, source) } : {}),
      };
    case "array":
      return { ...type, items: fillSources(type.items, source) };
    case "union":
      return { ...type, options: type.options.map((o) => fillSources(o, source)) };
    default:
      return type;
  }
}
