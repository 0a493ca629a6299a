import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import { pascal } from "../model/naming.js";
import type { Resource, TypeRef } from "../model/types.js";
import { type YfmBlock, type YfmPage, slugOf } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { type FieldScope, fieldColumns, plainText, readFieldRows } from "./fields.js";
import { basicType } from "./type-words.js";

/**
 * The reference's type catalogue: `api-reference/data-types.md` and the areas' own `data-types.md` pages
 * (spec-source/README-reference.md#types). Two kinds of entry:
 *
 *     || [`sale_order`](#sale_order) | Integer identifier of the order (e.g., `1`) … ||     a word for an identifier
 *     ### sale_status                                                                    an object's structure
 *     #| || **Name** `type` | **Description** || || **ID** [`string`](…) | … || |#
 *
 * A word whose description says "integer identifier" is an integer, "character" or "string identifier" a string;
 * an object structure becomes a resource of the model, and `x.id` the type of that resource's member `id`. A word
 * the catalogue does not define stays unknown (with a warning where a field uses it), never a guess.
 */
export interface TypeCatalogue {
  word(word: string, role?: "parameter"): TypeRef | null;
  /** The words the catalogue defines (lower case). */
  words(): Iterable<string>;
  table(anchor: string): { rows: YfmCell[][] } | null;
  resources: Resource[];
}

interface Entry {
  description: string;
  /** Where the description was read, for a second definition's warning. */
  at: string;
  structure: { rows: YfmCell[][]; heading: Extract<YfmBlock, { kind: "heading" }> } | null;
  /** A structure given as another's ("See the description of [sale_order_property](#…)"): that word. */
  alias?: string;
  /** The word's cell in the table of words, for a diagnostic about its definition. */
  cell: YfmCell | null;
}

/** The type a word of the table of words is, when its description says it is an identifier. */
function identifierOf(e: Entry): TypeRef | null {
  if (/^(an? )?integer identifier\b|^identifier of\b|\bidentifier \(e\.g\., `?\d/i.test(e.description)) return { kind: "primitive", type: "integer" };
  if (/^(an? )?(character|string|symbolic) (identifier|code)\b/i.test(e.description)) return { kind: "primitive", type: "string" };
  return null;
}

/**
 * A word the table of words defines in words alone, with no structure of its own: "Object format: { lang_1: value_1,
 * … }" (`lang_map`), "Object describing the communication channel … The composition of the fields is in the article
 * …" (`crm_activity_communication`) is an object whose members are not given here; "Value of a user field. The
 * specific type of the value depends on the type of the field itself" (`crm_userfield`) is a value of any type, as the
 * catalogue says; "Type of the activity: `1` — meeting, `2` — call, …" (`crm_enum_activitytype`) an integer of those
 * values. Each is the catalogue's statement, not an unknown word (no `unknown-type-word` where it is used).
 * Null for any other description.
 */
function describedOnly(key: string, e: Entry): TypeRef | null {
  const words = plainText(e.description);
  // "Object describing …", and "File attached to a timeline record. In the response, the method returns an object
  // describing the file" (`attached_diskfile`, `product_file`): an object whose members are not given there.
  if (/^object\b/i.test(words) || /\bthe method returns an object\b/i.test(words)) return { kind: "object", members: [], open: true };
  // "Type of the activity: `1` — meeting, `2` — call, … `0` — type is not defined." (crm's activity enumerations):
  // each value a number in backticks and its meaning; the set is closed unless the words say it is an example.
  const listed = [...words.matchAll(/`(-?\d{1,9})`[ \t]*[—–-][ \t]/g)].map((m) => Number(m[1]));
  if (listed.length >= 2 && new Set(listed).size === listed.length && !/\b(?:for example|e\.g\.|etc\.)/i.test(words)) return { kind: "primitive", type: "integer", enum: listed };
  // The note is the sentence that says so.
  const depends = words.split(/(?<=\.)\s/).find((sentence) => /\bdepends on\b/i.test(sentence));
  if (depends) return { kind: "unknown", note: `the catalogue's \`${key}\`: ${depends.slice(0, 160)}` };
  return null;
}

/**
 * The sentence of a word's description that says a value written takes the file upload structure, or null. Split
 * into sentences first, each tested with `includes` (a pattern over the whole text took time in the cube of a
 * hostile description's length, review).
 */
function uploadWhenWriting(description: string): string | null {
  for (const part of plainText(description).split(/[.;]/)) {
    const lower = part.toLowerCase();
    if (/\bwhen writing\b/.test(lower) && lower.includes("upload structure")) return part.trim();
  }
  return null;
}

/** "See the description of [`word`](#anchor)." alone under a structure's heading. */
const SEE = /^see the description of \[`?([\w.]+)`?\]\(#[^)\s]*\)\.?$/i;

export function readCatalogue(pages: YfmPage[], diagnostics: Diagnostic[]): TypeCatalogue {
  const entries = new Map<string, Entry>();
  const anchors = new Map<string, { rows: YfmCell[][] }>();
  const entry = (w: string) => {
    const key = w.toLowerCase();
    let e = entries.get(key);
    if (!e) entries.set(key, (e = { description: "", at: "", structure: null, cell: null }));
    return e;
  };
  for (const page of pages) {
    let heading: Extract<YfmBlock, { kind: "heading" }> | null = null;
    for (const b of page.blocks) {
      if (b.kind === "heading") {
        heading = b;
        continue;
      }
      // `### sale_shipment_property` then "See the description of [sale_order_property](#sale_order_property).":
      // the structure is that one's, not a word with none (which would leave only its identifier).
      const see = b.kind === "text" && heading && heading.depth >= 3 && /^[a-z][\w.]*$/i.test(heading.text.trim()) ? SEE.exec(b.text.trim()) : null;
      if (see && heading) entry(heading.text.trim()).alias ??= (see[1] as string).toLowerCase();
      if (b.kind !== "table" || !heading) continue;
      const header = b.rows[0];
      if (!header) continue;
      const anchor = heading.anchor ?? slugOf(heading.text);
      if (!anchors.has(anchor)) anchors.set(anchor, b);
      const words = header.map((c) => plainText(c.text.replace(/`/g, "")).toLowerCase());
      if (/^type\b/.test(words[0] ?? "")) {
        // A table of words: each row's first cell names one, its second says what it is.
        for (const row of b.rows.slice(1)) {
          const w = /`([^`]+)`/.exec(row[0]?.text ?? "")?.[1];
          if (!w || basicType(w)) continue;
          const e = entry(w);
          // The first page (in path order) that defines a word defines it; a second definition is said, not merged.
          if (e.description) diagnostics.push(diagnostic("duplicate-type-word", { file: row[0]?.file ?? page.file, line: row[0]?.line ?? 1, column: row[0]?.column ?? 1, endLine: row[0]?.line ?? 1, endColumn: (row[0]?.column ?? 1) + 1 }, { word: w, first: e.at }));
          else {
            e.description = plainText(row[1]?.text ?? "");
            e.at = `${row[0]?.file ?? page.file}:${row[0]?.line ?? 1}`;
            e.cell = row[0] ?? null;
          }
        }
      } else if (fieldColumns(header) && /^[a-z][\w.]*$/i.test(heading.text.trim()) && heading.depth >= 3) {
        const e = entry(heading.text.trim());
        e.structure ??= { rows: b.rows, heading };
      }
    }
  }
  const resources: Resource[] = [];
  const byTitle = new Map<string, Resource>();
  const built = new Map<string, TypeRef | null>();
  const scope: FieldScope = {
    file: "",
    diagnostics,
    tableAt: (anchor) => anchors.get(anchor) ?? null,
    typeWord: (w) => word(w),
  };
  function structureOf(key: string): TypeRef | null {
    if (built.has(key)) return built.get(key) ?? null;
    const e = entries.get(key);
    if (e && !e.structure && e.alias && e.alias !== key) {
      built.set(key, null);
      const t = structureOf(e.alias);
      built.set(key, t);
      return t;
    }
    if (!e?.structure) return null;
    const name = pascal(key.replace(/\./g, "_"));
    built.set(key, { kind: "ref", resource: name });
    const [header, ...rows] = e.structure.rows;
    const cols = header ? fieldColumns(header) : null;
    const members = cols ? readFieldRows(scope, cols, rows, [key]) : [];
    const h = e.structure.heading;
    const resource: Resource = {
      name,
      title: key,
      description: e.description,
      returnedBy: [],
      links: [],
      type: { kind: "object", members },
      typingRules: [],
      notes: [],
      source: { file: h.file, line: h.line, column: h.column },
    };
    resources.push(resource);
    byTitle.set(key, resource);
    return built.get(key) ?? null;
  }
  // Each word's upload sentence, found once per run (word() is asked once per cell that names the word).
  const uploadMemo = new Map<string, string | null>();
  const uploads = (key: string, e: Entry): string | null => {
    if (!uploadMemo.has(key)) uploadMemo.set(key, uploadWhenWriting(e.description));
    return uploadMemo.get(key) ?? null;
  };
  function word(w: string, role?: "parameter"): TypeRef | null {
    const key = w.toLowerCase();
    const e = entries.get(key);
    if (e) {
      // "In the response, the method returns an object describing the file; when writing, the value is passed as an
      // upload structure" (`diskfile`, `attached_diskfile`): a value sent takes the file upload structure, whose form
      // the rules page gives by method (a Base64 string, a name and such a string, a `fileData` object), not the
      // object an answer describes: a parameter of the word is unknown with the sentence that says so.
      const upload = role === "parameter" ? uploads(key, e) : null;
      if (upload) return { kind: "unknown", note: `the catalogue's \`${key}\`: ${upload}` };
      const id = identifierOf(e);
      const s = structureOf(key);
      // The word is an identifier in the table of words and has an object's structure under its own heading too
      // (`sale_order`, `crm_item_product_row`): pages use it for both, the identifier as a parameter and the object
      // as a result's member. A parameter takes the identifier; elsewhere either (said once per word, below).
      if (id && s) return role === "parameter" ? id : { kind: "union", options: [id, s] };
      return id ?? s ?? describedOnly(key, e);
    }
    // `x.id`: the member `id` of the structure of `x`.
    const dot = key.lastIndexOf(".");
    if (dot > 0) {
      const owner = key.slice(0, dot);
      const member = key.slice(dot + 1);
      structureOf(owner);
      const r = byTitle.get(owner);
      const m = r && r.type.kind === "object" ? r.type.members.find((f) => f.name.toLowerCase() === member) : undefined;
      // A copy: the readers may give the type members of their own (a payload's dotted rows). `x.id` where the
      // table of words calls `x` an identifier of another type than its structure's `id` row (sale_order_shipment:
      // "Integer identifier of the shipment", its structure's `id` a `string`): the catalogue says both, so both
      // are taken (said once per word, below).
      if (m) {
        const other = idDisagrees(owner, member, m.type);
        return other ? { kind: "union", options: [structuredClone(m.type), structuredClone(other)] } : structuredClone(m.type);
      }
      // `user.id` where `user` is itself an identifier: the identifier's type.
      const e = entries.get(owner);
      const own = member === "id" && !r && e ? (identifierOf(e) ?? word(owner)) : null;
      if (own?.kind === "primitive") return own;
    }
    return null;
  }
  /** The identifier's type the table of words gives `owner`, where it is a primitive other than its `id` row's. */
  function idDisagrees(owner: string, member: string, row: TypeRef): TypeRef | null {
    const e = member === "id" ? entries.get(owner) : undefined;
    const id = e ? identifierOf(e) : null;
    return id?.kind === "primitive" && row.kind === "primitive" && !row.enum && id.type !== row.type ? id : null;
  }
  // Every structure is a resource whether or not a page names it: what the model holds does not depend on which
  // pages were read anew and which came from the cache.
  for (const key of [...entries.keys()].sort()) {
    const e = entries.get(key) as Entry;
    if (structureOf(key) && identifierOf(e) && e.cell) {
      const c = e.cell;
      const at = { file: c.file, line: c.line, column: c.column, endLine: c.line, endColumn: c.column + 1 };
      diagnostics.push(diagnostic("ambiguous-reading", at, { text: `${key}: ${e.description.slice(0, 60)}`, reading: "the identifier where it types a parameter; in results and structures the identifier or the object its structure describes, a value of either type" }));
      const r = byTitle.get(key);
      const row = r?.type.kind === "object" ? r.type.members.find((f) => f.name.toLowerCase() === "id") : undefined;
      const other = row ? idDisagrees(key, "id", row.type) : null;
      if (row && other?.kind === "primitive" && row.type.kind === "primitive") {
        diagnostics.push(diagnostic("ambiguous-reading", at, { text: `${key}.id: the table of words says ${other.type}, the structure's \`${row.name}\` row ${row.type.type}`, reading: `either type, ${row.type.type} or ${other.type}, where a page types a value \`${key}.id\`` }));
      }
    }
  }
  return { word, words: () => entries.keys(), table: (a) => anchors.get(a) ?? null, resources };
}
