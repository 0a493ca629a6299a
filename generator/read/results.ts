import type { Field, ResultSpec, TypeRef } from "../model/types.js";
import type { Text } from "../parse/markdown.js";
import { type ReadContext, collapse, sourceOf } from "./inline.js";
import { UNKNOWN, field, readTypePhrase } from "./types.js";
import { namedParenGroups } from "../util/parens.js";

/**
 * Reads result sentences (spec-source/README.md#results):
 *
 *     Response `result.task` (see Task).            Result `{publicUrl}` (string, or null when disabled).
 *     Result: array of Placement handler items; empty array when none.
 *     Result: boolean `true`.                        Result `attach` (see Attached vote).
 *     Response `result`: External call statistics record.
 *     `result` has `uploadUrl` (string) and `fieldName` (string) ... Otherwise ... `result.FILE_ID` (integer) ...
 *
 * A resource is named by its title (`{ kind: "unresolved", by: "title" }`) or, where the sentence says only "the
 * user object", by the method it is returned by (`by: "returned-by"`); the model stage resolves both to schema names.
 */

export { RETURNED_BY } from "../model/fragments.js";
import { RETURNED_BY } from "../model/fragments.js";
export const titleRef = (title: string): TypeRef => ({ kind: "unresolved", by: "title", text: collapse(title) });

const TRUE: TypeRef = { kind: "primitive", type: "boolean", enum: [true] };

function memberShape(ctx: ReadContext, t: Text, names: Array<{ name: string; paren: string }>): TypeRef {
  const members: Field[] = names.map(({ name, paren }) => {
    const tp = readTypePhrase(paren);
    return field({
      name,
      type: tp?.type ?? UNKNOWN,
      required: true,
      nullable: tp?.nullable ?? false,
      description: collapse(tp ? paren.slice(tp.length).replace(/^[\s,;:]+/, "") : paren),
      source: sourceOf(ctx, t),
    });
  });
  return { kind: "object", members };
}

/** A type from the words after "Result:" ("array of X items", "boolean", "id of the new comment (integer)"). */
function typeFromWords(words: string): TypeRef {
  const w = words.trim().replace(/^(?:an?|the)\s+(?=[a-z])/i, "");
  if (/^(always\s+)?((?:boolean|bool)\s+)?`true`/i.test(w)) return TRUE;
  const arr = /^array of (.+?) items?\b/i.exec(w);
  if (arr) return { kind: "array", items: titleRef(arr[1] ?? "") };
  const tp = readTypePhrase(w);
  if (tp && tp.type.kind !== "object") return tp.type;
  // "(integer)", and the type words' short forms the grammar reads ("(int)"): a primitive in parentheses.
  const paren = /\(`?(\w+)`?\)/.exec(w);
  const inParen = paren ? readTypePhrase(paren[1] ?? "") : null;
  if (inParen && inParen.type.kind === "primitive") return inParen.type;
  const leading = /^(integer|number|string|boolean)\b/.exec(w);
  if (leading) return readTypePhrase(leading[1] ?? "")?.type ?? UNKNOWN;
  // "(see Task)", "— see Task", and the arrow a developer writes for it: "(→ Allowed actions)".
  const see = /\((?:see|→|->)\s*([^)]+)\)/.exec(w) ?? /^(?:—|–|-|→)?\s*see (?:the )?([A-Z][^.;,()]*?)\s*\.?$/.exec(w);
  if (see) return titleRef(see[1] ?? "");
  if (/\b(object|array)\b/.test(w)) {
    const ref: TypeRef = RETURNED_BY;
    return /\bas an array\b|^array\b/.test(w) ? { kind: "array", items: ref } : ref;
  }
  return UNKNOWN;
}

/** Empty-result statements: "empty array when none", "`allowedActions` is an empty array". */
function emptyStatements(s: string): string[] {
  // Split at `;` and `.` first, then test each part: a pattern of `[^;.]*` around the words retried from every
  // position of a long run without `;` or `.` (issue 24: a 200 KB line took 36 s); this is linear.
  return s
    .split(/[;.]/)
    .filter((part) => /\bempty (?:array|object)\b/.test(part))
    .map((part) => collapse(part));
}

/**
 * The members a result sentence lists: "(members `a`, `b`)", ", with members `a`, `b`", "→ members `a`, `b`", "The
 * OpenAPI document has the members `a`, `b`".
 */
const MEMBERS = /(?:\(|,\s*with\s+|→\s*|\bwith\s+|\bhas (?:the )?)members ((?:`[^`]+`(?:\s*,\s*|\s+and\s+)?)+)/;

export function readResultSentence(ctx: ReadContext, t: Text): ResultSpec | null {
  const written = collapse(t.text);
  // "Returns: `result.task` — see Task", "Result: `result` — an External Call Statistics Record": a label with the
  // member path is the Response form.
  // "Returns: the task in `result.item`" is "`result.item` holds the task".
  const s = written
    .replace(/^(?:Returns|Result|Response)\s*:?\s*(?:the\s+)?([^`:;]+?) in `result\.([A-Za-z_]\w*)`/, "`result.$2` holds the $1")
    // "Resp: `result.item` = the task; incl. `archiveLink` (…)": the same, in a developer's shorthand.
    .replace(/^(?:Returns|Result|Response)\s*:?\s*`result\.([A-Za-z_]\w*)`\s*=\s*(?:the\s+)?(?=[a-z])/i, "`result.$1` holds the ")
    .replace(/;\s*incl\.\s+(?=`)/, "; includes ")
    .replace(/^(?:Returns|Result|Response)\s*:\s*(?=`result[.`])/, "Response ")
    // "Returns: `{ID}`" is the Result form's "Result `{ID}`".
    .replace(/^Returns\s*:?\s*(?=`\{)/, "Result: ")
    // "Returns: `attach` — see Attached vote" is the Result form's "Result `attach` (see Attached vote)".
    .replace(/^Returns\s*:?\s*(?=`[A-Za-z_]\w*`\s*(?:—|–|\(see\b|\(→))/, "Result: ").replace(/^(Response `result(?:\.[A-Za-z_]\w*)?`)\s*(?:—|–|-|:)\s*/, "$1 ");
  const source = sourceOf(ctx, t);
  const base = { description: written, empty: emptyStatements(written), source };
  let m = /^Response `result\.([A-Za-z_][\w]*)`\s*(.*)$/.exec(s);
  // The path alone ("Returns: `result.task`") stays unknown here: the model links it to the resource that says it
  // is returned under that key, and no other.
  if (m) return { ...base, key: m[1] ?? null, type: typeFromWords(m[2] ?? "") };
  m = /^Response `result`:?\s*(.*)$/.exec(s);
  if (m) {
    const words = (m[1] ?? "").replace(/\.$/, "");
    const typed = typeFromWords(words);
    return { ...base, key: null, type: typed.kind === "unknown" ? titleRef(words.replace(/^(?:an?|the)\s+/i, "")) : typed };
  }
  m = /^Result:?\s*`\{([A-Za-z_]\w*)\}`:?\s*(.*)$/.exec(s);
  if (m) {
    const rest = (m[2] ?? "").replace(/^\((.*)\)$/, "$1");
    const tp = readTypePhrase(rest);
    const member = field({
      name: m[1] ?? "",
      type: tp?.type ?? UNKNOWN,
      required: true,
      nullable: tp?.nullable ?? false,
      description: collapse(tp ? rest.slice(tp.length).replace(/^[\s,;:]+/, "") : rest),
      source,
    });
    // "`{ID}`" with no words: the shape comes from the resource this method returns, when there is one.
    if (!tp && !rest) return { ...base, key: null, type: { kind: "unresolved", by: "returned-by", text: "", member: member.name } };
    return { ...base, key: null, type: { kind: "object", members: [member] } };
  }
  m = /^Result:?\s*`([A-Za-z_]\w*)`\s*(.*)$/.exec(s);
  // "Result: `boolean`." names a type, not a member: a type word (or `true`) in backticks is the type.
  const literal = m?.[1] === "true" || m?.[1] === "false";
  const typeWord = !!m && !literal && readTypePhrase(m[1] ?? "")?.length === (m[1] ?? "").length;
  if (m && !literal && !typeWord) return { ...base, key: m[1] ?? null, type: typeFromWords(m[2] ?? "") };
  // "(members `a`, `b`)", ", with members `a`, `b`", "→ members `a`, `b`": the members of the result object.
  const membersOf = (words: string) => MEMBERS.exec(words);
  m = /^Result:?\s*(.*)$/.exec(typeWord ? s.replace(/`([A-Za-z_]\w*)`/, "$1") : s);
  if (m) {
    // "Result: The OpenAPI document has the members `openapi`, …" (a Response Handling section's own words).
    const members = typeWord ? null : membersOf(m[1] ?? "");
    if (members) return { ...base, key: null, type: membersFromPaths([...(members[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? ""), ctx, t) };
    return { ...base, key: null, type: typeFromWords(m[1] ?? "") };
  }
  m = /^Returns:\s*(.*)$/.exec(s);
  if (m) {
    const members = membersOf(m[1] ?? "");
    if (members) return { ...base, key: null, type: membersFromPaths([...(members[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? ""), ctx, t) };
    return { ...base, key: null, type: typeFromWords(m[1] ?? "") };
  }
  m = /^Returns\s+(.*)$/.exec(s);
  if (m) {
    const words = m[1] ?? "";
    const members = membersOf(words);
    if (members) return { ...base, key: null, type: membersFromPaths([...(members[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? ""), ctx, t) };
    if (/\bas an array\b/.test(words)) return { ...base, key: null, type: { kind: "array", items: RETURNED_BY } };
    return null;
  }
  m = /^`result\.([A-Za-z_]\w*)` holds (?:the )?([^;]+?)(?:;|$)(.*)$/.exec(s);
  if (m) {
    const includes = namedParenGroups(m[3] ?? "").find((g) => /includes\s*$/.test((m?.[3] ?? "").slice(0, g.start)));
    let type: TypeRef = titleRef(m[2] ?? "");
    if (includes && type.kind === "unresolved") {
      const inc = field({
        name: includes.name,
        type: { kind: "primitive", type: "string" },
        required: false,
        nullable: false,
        description: collapse(includes.paren),
        source,
      });
      type = { ...type, with: [inc] };
    }
    return { ...base, key: m[1] ?? null, type };
  }
  // "With `A` and no `B`: `result` has `x` (string) and `y` (string) ... Otherwise ... `result.Z` (integer) is returned."
  const hasAt = s.indexOf("`result` has `");
  const items = hasAt >= 0 ? leadingItems(s.slice(hasAt + "`result` has ".length)) : [];
  if (items.length > 0) {
    const first = memberShape(ctx, t, items);
    const other = namedParenGroups(s, /^result\.[A-Za-z_]\w*$/)[0];
    const type: TypeRef = other
      ? { kind: "union", options: [first, memberShape(ctx, t, [{ name: other.name.slice("result.".length), paren: other.paren }])] }
      : first;
    return { ...base, key: null, type };
  }
  return null;
}

/** `openapi`, `info`, `components.schemas` → an object with those members (dotted paths nest). */
function membersFromPaths(paths: string[], ctx: ReadContext, t: Text): TypeRef {
  const root: Extract<TypeRef, { kind: "object" }> = { kind: "object", members: [], open: true };
  for (const path of paths) {
    let node = root;
    const parts = path.split(".");
    for (const [i, part] of parts.entries()) {
      let f = node.members.find((x) => x.name === part);
      if (!f) {
        f = field({
          name: part,
          type: i < parts.length - 1 ? { kind: "object", members: [], open: true } : UNKNOWN,
          required: true,
          description: "",
          source: sourceOf(ctx, t),
        });
        node.members.push(f);
      }
      if (f.type.kind === "object") node = f.type;
    }
  }
  return root;
}

export function isResultSentence(s: string): boolean {
  return /^(Response|Result|Returns)\b/.test(s) || /^`result\.\w+` holds\b/.test(s) || /`result` has `/.test(s);
}

/** "`a` (x), `b` (y) and `c` (z) ..." at the start of a text: the items up to the first text that is not one. */
function leadingItems(s: string): Array<{ name: string; paren: string }> {
  const out: Array<{ name: string; paren: string }> = [];
  let at = 0;
  for (const g of namedParenGroups(s)) {
    if (!/^(?:\s*,\s*|\s+and\s+|\s*\+\s*)?$/.test(s.slice(at, g.start))) break;
    out.push({ name: g.name, paren: g.paren });
    at = g.end;
  }
  return out;
}

/**
 * A result told as alternatives, one a list item or a table row, each with the condition it holds under and the
 * members `result` has then (the sentence form's "With `A` and no `B`: `result` has … Otherwise … `result.Z` …" in
 * other hands):
 *
 *     - When `FILENAME` is passed without `FILE_CONTENT`, `result` contains `uploadUrl` (`string`) and `fieldName` (`string`).
 *     - Otherwise the file is attached immediately and `result.FILE_ID` (`integer`) is returned.
 *     | Request contains | `result` |  (a row's `result` cell: "`uploadUrl` (string) and `fieldName` (string), …")
 *
 * A union of the alternatives' objects; null unless there are two or more and each names its members.
 */
export function readResultAlternatives(ctx: ReadContext, items: Array<{ at: Text; result: string; whole: string; condition: string }>): ResultSpec | null {
  if (items.length < 2) return null;
  const options: TypeRef[] = [];
  for (const { at, result, condition } of items) {
    // Each alternative says when it holds: "- `result.ID` (integer)" and "- `result.URL` (string)" are two members
    // of one result, not two results.
    if (!/[A-Za-z`]/.test(condition.replace(/^(?:Results?|Returns?|Response)\b/i, ""))) return null;
    const s = collapse(result);
    const has = /`result`\s*(?:has|contains|holds|=|→)\s+/.exec(s);
    const path = namedParenGroups(s, /^result\.[A-Za-z_]\w*$/)[0];
    const members = has ? leadingItems(s.slice(has.index + has[0].length)) : path ? [{ name: path.name.slice("result.".length), paren: path.paren }] : /^`/.test(s) ? leadingItems(s) : [];
    if (members.length === 0) return null;
    // "(`string`)": the type word in backticks is the type.
    options.push(memberShape(ctx, at, members.map((m) => ({ ...m, paren: m.paren.replace(/`([a-z]+)`/g, "$1") }))));
  }
  const first = items[0];
  if (!first) return null;
  const description = items.map((i) => collapse(i.whole)).join("; ");
  return { description, empty: emptyStatements(description), source: sourceOf(ctx, first.at), key: null, type: { kind: "union", options } };
}

