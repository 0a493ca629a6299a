import type { Field, TypeRef } from "../model/types.js";
import { collapse } from "./inline.js";
import { UNKNOWN, field, readDefault, readTypePhrase } from "./types.js";
import { firstParenGroup } from "../util/parens.js";

/**
 * The shape an object parameter's words give it (spec-source/README.md#parameters), read after its clause or row:
 * keys and values, members named in the description, a `{field: ASC|DESC}` pattern; and the parameter's position
 * given to the members read out of its words.
 */

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
  // Also a developer's "key = setting name; value = obj w/ `TYPE` (…) + `VALUE` (…)".
  let m = /\bkey (?:is|=) (?:the |a )?([^;.]+)[;.]\s+(?:[Tt]he |[Ee]ach )?value (?:is an object with|= obj(?:ect)? (?:w\/|with)) (.*)$/.exec(description);
  if (m) out = { ...out, keyDescription: collapse(m[1] ?? ""), additional: { kind: "object", members: named(m[2] ?? "") } };
  // `{field: ASC|DESC}` anywhere in the words ("`ORDER` has the form `{field: ASC|DESC}`"), or one span per value
  // ("Of the form `{field: ASC}` or `{field: DESC}`"): the key and the values of a map.
  // Only where the words say it is the object's form: at their start, or after "form"/"format"/"shape" ("for example
  // `{TITLE: New task}`" is an example of the members, not a map); later spans only as alternatives ("or").
  const all = [...description.matchAll(/`\{(\w+):\s*([^`}]+)\}`/g)];
  const startAt = all.findIndex((f) => /(?:^|\b(?:form|format|shape)\s*:?\s*)$/i.test(description.slice(0, f.index)));
  const forms: RegExpExecArray[] = [];
  for (let i = startAt; i >= 0 && i < all.length; i++) {
    const f = all[i] as RegExpExecArray;
    const prev = forms[forms.length - 1];
    if (prev && !/^\s*(?:or|,)\s*$/.test(description.slice((prev.index ?? 0) + prev[0].length, f.index))) break;
    forms.push(f);
  }
  m = forms.length > 0 && forms.every((f) => f[1] === forms[0]?.[1]) ? (["", forms[0]?.[1] ?? "", forms.map((f) => f[2] ?? "").join("|")] as unknown as RegExpExecArray) : null;
  if (m) {
    const values = (m[2] ?? "").split("|").map((v) => v.trim());
    out = {
      ...out,
      keyDescription: m[1] ?? "",
      additional:
        values.length > 1 && values.every((v) => /^[A-Z][A-Z0-9_]*$/.test(v)) ? { kind: "primitive", type: "string", enum: values } : UNKNOWN,
    };
  }
  // "keys `a` or `b`, value X", also "; each value is X" and "→ value = X".
  m = /^[Kk]eys ((?:`[^`]+`(?:\s+or\s+|\s*,\s*)?)+?)\s*(?:[,;]|→)\s*(?:each |the )?value (?:is |= ?)?(.+)$/.exec(description);
  if (m) {
    const keys = [...(m[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? "");
    out = { ...out, keyDescription: keys.join(" or "), keyNames: keys, additional: { kind: "unknown", note: collapse(m[2] ?? "") } };
  }
  // "members `a` and `b`, each an array of X", also "Members", "`a` + `b`" and "each = array of X".
  m = /^[Mm]embers ((?:`[^`]+`(?:\s+and\s+|\s*,\s*|\s*\+\s*)?)+),\s*each (?:= ?)?(?:an? )?(.+)$/.exec(description);
  if (m) {
    const tp = readTypePhrase((m[2] ?? "").trim());
    const members = [...(m[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) =>
      field({ name: x[1] ?? "", type: tp?.type ?? UNKNOWN, description: collapse(m?.[2] ?? ""), source: NO_SOURCE }),
    );
    out = { ...out, members: [...out.members, ...members] };
  }
  // "keyed by language code with `TITLE`, …", also ", each with", ", w/" and a capital "Keyed".
  m = /^[Kk]eyed by ([^;,]+?),? (?:each )?(?:with|w\/) ((?:`[^`]+`(?:\s*,\s*|\s+and\s+)?)+)/.exec(description);
  if (m) out = { ...out, keyDescription: collapse(m[1] ?? ""), additional: { kind: "object", members: named(m[2] ?? "") } };
  const memberAt = /member `([A-Za-z_]\w*)`\s*\(/.exec(description);
  const memberGroup = memberAt ? firstParenGroup(description, memberAt.index + memberAt[0].length - 1) : null;
  if (memberAt && memberGroup && memberGroup.start === memberAt.index + memberAt[0].length - 1) {
    const desc = collapse(memberGroup.inner);
    const def = readDefault(desc, UNKNOWN);
    const member = field({ name: memberAt[1] ?? "", type: UNKNOWN, description: desc, ...(def ? { default: def } : {}), source: NO_SOURCE });
    out = { ...out, open: true, members: [...out.members, member] };
  }
  // "Contains `title`, `responsibleId`, `creatorId`", "Contains `taskId` (`integer`) and `text` (`string`)": the whole
  // description a list of members, each typed by its parenthesis when that is a type.
  m = out.members.length === 0 ? /^(?:Contains|Holds|Has) ((?:`[A-Za-z_]\w*`\s*(?:\([^()]*\))?(?:\s*,\s*|\s+and\s+)?)+)\.?$/.exec(description) : null;
  if (m) {
    const members = named(m[1] ?? "").map((f) => {
      const tp = readTypePhrase(f.description.replace(/`/g, ""));
      return tp && tp.length === f.description.replace(/`/g, "").length ? { ...f, type: tp.type, nullable: tp.nullable, description: "" } : f;
    });
    out = { ...out, members };
  }
  // "member `minTimeout` — seconds between notifications, default 1": the member's words after a dash.
  const memberDash = memberAt ? null : /\bmember `([A-Za-z_]\w*)`\s+[—–]\s+([^;]+)/.exec(description);
  if (memberDash) {
    const desc = collapse(memberDash[2] ?? "");
    const def = readDefault(desc, UNKNOWN);
    out = { ...out, open: true, members: [...out.members, field({ name: memberDash[1] ?? "", type: UNKNOWN, description: desc, ...(def ? { default: def } : {}), source: NO_SOURCE })] };
  }
  if (/\bfor example\b|\bdepends on\b/.test(description)) out.open = true;
  // A member said twice (a row's words, then a sentence after the table) is one member: the first reading.
  const names = new Set<string>();
  const members = out.members.filter((f) => !names.has(f.name) && names.add(f.name) !== undefined);
  return members.length === out.members.length ? out : { ...out, members };
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
