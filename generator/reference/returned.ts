import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { Constraint, Field, Method, MethodError, ResultSpec, Source, TypeRef } from "../model/types.js";
import type { YfmBlock } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { errorColumns, readErrorRows } from "./errors.js";
import { boldName, type FieldColumns, type FieldScope, fieldColumns, holdsNamed, keyedByIdentifier, linkWords, objectOrList, openMember, readFieldRows, saysList } from "./fields.js";
import { isDotted, nest } from "./nesting.js";
import { readTypeWords } from "./type-words.js";
import type { PageScope } from "./page.js";
import { MEMBER_LABEL, type PageSection, firstFieldTable, positionKey, spanOf, srcOf } from "./sections.js";

/**
 * What a method page's sections say of its parameters, its result (`### Returned Data`: `result`, the envelope's
 * `time`, `total` and `next`, a fields method's field descriptions) and its errors (`### Possible Error Codes`).
 * reference/page.ts finds the sections; reference/fields.ts reads the rows.
 */

export function readParameters(method: Method, s: PageSection, scope: FieldScope, used: Set<YfmBlock | YfmCell[][]>): void {
  const found = firstFieldTable(s.blocks);
  if (found) used.add(found.table);
  if (!found) {
    if (!s.blocks.some((b) => b.kind === "text" && /\bno parameters\b|\bwithout parameters\b/i.test(b.text))) {
      const t = s.blocks.find((b) => b.kind === "table");
      if (t) scope.diagnostics.push(diagnostic("unknown-table-column", spanOf(t, 2), { header: (t.kind === "table" ? t.rows[0] : [])?.map((c) => c.text.replace(/\s+/g, " ")).join(" | ") ?? "", known: "'Name `type` | Description'" }));
    }
    return;
  }
  const forms = callForms(s, scope, used);
  if (forms) {
    method.params.push(...forms.params);
    if (forms.constraint) method.constraints.push(forms.constraint);
    return;
  }
  // `fields.CONTACT_ID` beside `fields` (crm.company.contact.delete) is the member `CONTACT_ID` of `fields`, never a
  // parameter whose name holds a dot: the dotted rows nest as the returned data's do.
  const rows = readFieldRows(scope, found.cols, found.table.rows.slice(1));
  method.params.push(...(rows.some((f) => isDotted(f.name)) ? nest(rows, scope.diagnostics) : rows));
}

/**
 * "There are three options for calling the method." and a table of parameters under each heading after it
 * (vote.attachedvote.get: "1. By Attached Poll ID" `attachId`*, "2. By Poll Element" `moduleId`*, `entityType`*,
 * `entityId`*, "3. By Signed ID" `signedAttachId`*): the call forms, each table's starred names one form. A name in
 * several tables is one parameter (its first row); it is required where every form stars it (`ballot` in each form of
 * vote.attachedvote.vote), else the forms say when. Null unless the words say so and two tables or more follow.
 */
function callForms(s: PageSection, scope: FieldScope, used: Set<YfmBlock | YfmCell[][]>): { params: Field[]; constraint: Constraint | null } | null {
  const at = s.blocks.findIndex((b) => b.kind === "text" && CALL_FORMS.test(b.text));
  const said = s.blocks[at];
  if (!said || said.kind !== "text") return null;
  // The forms are the tables under the headings after the words, each at the first one's depth; a table before them
  // (parameters every form shares) is not read so: the section is read as before, its first table and the others
  // warned. A deeper heading's table (a nested object's section) is no form.
  const first = s.blocks.findIndex((b, i) => i > at && b.kind === "heading");
  const top = s.blocks[first];
  if (!top || top.kind !== "heading") return null;
  if (s.blocks.slice(0, first).some((b) => b.kind === "table" && b.rows[0] !== undefined && fieldColumns(b.rows[0]) !== null)) return null;
  const tables: Array<{ table: Extract<YfmBlock, { kind: "table" }>; cols: FieldColumns }> = [];
  let heading = false;
  for (const b of s.blocks.slice(first)) {
    if (b.kind === "heading") {
      if (b.depth < top.depth) break;
      heading = b.depth === top.depth;
      continue;
    }
    if (b.kind !== "table" || !heading) continue;
    const cols = b.rows[0] ? fieldColumns(b.rows[0]) : null;
    if (!cols) continue;
    tables.push({ table: b, cols });
    // One table to a heading: a second one under the same heading is not a form of its own.
    heading = false;
  }
  if (tables.length < 2) return null;
  const words = linkWords(said.text).replace(/\s+/g, " ").trim();
  // "There are two options" over three tables (vote.attachedvote.vote): each table is read as a form, and said.
  const count = CALL_FORMS.exec(said.text)?.[1]?.toLowerCase() ?? "";
  const stated = /^\d+$/.test(count) ? Number(count) : (NUMBER_WORDS[count] ?? null);
  if (stated !== null && stated !== tables.length) {
    scope.diagnostics.push(diagnostic("ambiguous-reading", spanOf(said, 1), { text: `"${words.slice(0, 80)}", then ${tables.length} tables under its headings`, reading: `each of the ${tables.length} tables a call form` }));
  }
  const byName = new Map<string, Field>();
  const forms: string[][] = [];
  for (const { table, cols } of tables) {
    used.add(table);
    const rows = readFieldRows(scope, cols, table.rows.slice(1));
    // A name again (`ballot` in each form) is the parameter already read: its row is held by it.
    for (const f of rows) {
      const earlier = byName.get(f.name);
      if (!earlier) byName.set(f.name, f);
      else {
        scope.merged?.add(positionKey(f.source as Source));
        if (typeKey(earlier.type) !== typeKey(f.type)) scope.diagnostics.push(diagnostic("ambiguous-reading", spanOf(f.source as Source, f.name.length + 4), { text: `${f.name}: ${typeWords(f.type)} here, ${typeWords(earlier.type)} in an earlier form`, reading: "the earlier form's type: a parameter has one" }));
      }
    }
    forms.push(rows.filter((f) => f.required).map((f) => f.name));
  }
  const everywhere = (name: string) => forms.every((f) => f.includes(name));
  const params = [...byName.values()].map((f) => ({ ...f, required: f.required && everywhere(f.name) }));
  // Each form without the names every form requires; a form that then requires nothing (all its starred names are
  // every form's, or it stars none) is met by any call: the forms constrain nothing, and no constraint is made.
  const own = forms.map((f) => f.filter((n) => !everywhere(n)));
  const constraint: Constraint | null = own.some((f) => f.length === 0) ? null : { kind: "call-forms", forms: own, text: words, source: srcOf(said) };
  return { params, constraint };
}

/** "There are three options for calling the method.", "There are two ways to call the method". */
const CALL_FORMS = /\bthere are (two|three|four|five|several|\d+) (?:options|ways) (?:for calling|to call) the method\b/i;

const NUMBER_WORDS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5 };

/** A type as text without its positions and words, to compare two rows' types. */
function typeKey(t: TypeRef): string {
  return JSON.stringify(t, (k, v) => (k === "source" || k === "description" ? undefined : v));
}

export function readReturned(method: Method, s: PageSection, scope: FieldScope, used: Set<YfmBlock | YfmCell[][]>, envelope: Field[]): void {
  if (method.result) return;
  const found = firstFieldTable(s.blocks);
  if (!found) return;
  used.add(found.table);
  // The envelope's own rows: `time` is read once from data-types.md; `total` and `next` (a list method's paging)
  // go to the envelope, where the front end keeps the first page's reading of each.
  const rows = found.table.rows.slice(1);
  const names = rowNames(rows, found.cols);
  envelope.push(...readFieldRows(scope, found.cols, rows, [], new Set(["time", ...names.filter((n) => !PAGING.has(n))])));
  const fields = readFieldRows(scope, found.cols, rows, [], ENVELOPE_ONLY);
  const result = fields.find((f) => f.name === "result");
  const members = fields.filter((f) => f.name !== "result");
  let type: TypeRef;
  let source: Source;
  let description = "";
  if (result) {
    // A fields method whose `result` row names the entity (`[lead](#lead)`, "contains information about lead
    // fields"): the entity's table lists the fields `result` describes, as below. A row typed `object` "described
    // below" lists result's own members (mailservice.fields: each field's name).
    const row = rows[names.indexOf("result")];
    const words = readTypeWords((found.cols.type !== null ? row?.[found.cols.type]?.text : row?.[found.cols.name]?.text) ?? "");
    const entity = words?.options.length === 1 && !/^(object|array)$/i.test(words.options[0]?.word ?? "");
    // So does one whose `result` row says its members describe fields ("Object with field descriptions", linked to
    // the table; "Array with the description of file fields", then the fields as rows beside it).
    const described = FIELDS_METHOD.test(method.name) && DESCRIBES_FIELDS.test(result.description);
    // A bare `object` cell linked to a structure (`[object](../data-types.md#catalog_document)`) with rows of its own
    // beside it (`document` [`catalog_document`]): the rows are result's members, as on every page that lists them
    // so, and the link names what one of them holds. Read as the linked structure, result was the document itself and
    // the `document` row was dropped (catalog.document.add, .update, .getFields).
    const option = words?.options.length === 1 ? words.options[0] : undefined;
    const linkedCell = option !== undefined && /^object$/i.test(option.word) && (option.link !== null || option.page !== null) && option.arrays === 0;
    if (linkedCell && members.length > 0 && result.type.kind === "object" && result.type.members.length > 0) {
      // The structure's rows, read through the link, are the member's type now (its row names the same word).
      for (const f of result.type.members) {
        if (f.source) scope.merged?.add(positionKey(f.source));
        eachNested(f.type, (n) => scope.merged?.add(positionKey(n.source as Source)));
      }
      result.type = { kind: "object", members: [] };
    }
    const linked = result.type.kind === "object" && result.type.members.length > 0 ? result.type.members : null;
    const beside = described && !linked && members.length > 0 && isBare(result.type) ? members : null;
    // Rows typed `object` already are the descriptions (crm.enum.fields): as the table says.
    const already = linked?.every((f) => f.type.kind === "object") ?? false;
    // A member the row's words name ("Contains an array `fields` with descriptions of the source fields"): result
    // holds it, it does not describe fields of its own (fields.ts heldMember).
    const said = (found.cols.description !== null ? row?.[found.cols.description]?.text : "") ?? "";
    const holds = linked !== null && holdsNamed(result.type, said);
    const fieldsOf = (entity || (described && !already)) && FIELDS_METHOD.test(method.name) && linked && !holds ? linked : beside;
    // A described field's own value type (`LIST` of `uf_enum_element[]`) is named in its description and is the
    // catalogue's resource: the rows it was read from are held by the field, not dropped.
    if (fieldsOf) for (const f of fieldsOf) eachNested(f.type, (n) => scope.merged?.add(positionKey(n.source as Source)));
    // "Returns `false` if …" added `false` to the row's type (fields.ts): the rows beside it describe the rest.
    const falsy = result.type.kind === "union" && result.type.options.length === 2 ? result.type.options.find(isFalse) : undefined;
    const core = falsy && result.type.kind === "union" ? (result.type.options.find((o) => o !== falsy) as TypeRef) : result.type;
    type = fieldsOf ? descriptionsOf(fieldsOf) : withSiblings({ ...result, type: core }, members, scope.diagnostics, (f) => scope.merged?.add(positionKey(f.source as Source)));
    // Rows beside a bare `result` whose words say its keys are identifiers ("An object containing data about the
    // stages, with stage IDs as keys": task.stages.get): each value is an object of those rows, not result itself.
    if (!fieldsOf && core.kind === "object" && core.members.length === 0 && type.kind === "object" && type.members.length > 0 && !type.additional && !type.open && keyedByIdentifier(linkWords(said))) {
      type = { kind: "object", members: [], additional: type, keyDescription: "identifier" };
    }
    if (falsy && !fieldsOf && type !== core) type = { kind: "union", options: [...(type.kind === "union" ? type.options : [type]), falsy] };
    else if (falsy && !fieldsOf) type = result.type;
    // A `result` typed `object` whose words call it a list (fields.ts saysList): the object with its members, or a
    // list of such objects.
    const typeCell = (found.cols.type !== null ? row?.[found.cols.type]?.text : row?.[found.cols.name]?.text.replace(/^[^\n]*\n?/, "")) ?? "";
    if (!fieldsOf && (type.kind === "object" || type.kind === "ref") && saysList(typeCell, said) && !holdsNamed(type, said)) type = objectOrList(type);
    type = selected(type, scope.selectable, (f) => scope.merged?.add(positionKey(f.source as Source)));
    if (result.nullable && !fieldsOf) type = { kind: "union", options: [type, { kind: "null" }] };
    source = result.source;
    description = result.description;
    // A fields method whose `result` is a bare value or a map of each field to its attributes, with the fields listed
    // in tables further in the section that no link reached (crm.address.fields' "Description of Address Fields",
    // crm.quote.fields' "Main Fields" and "Deprecated Fields"): those rows are result's keys, each described as the
    // map's value (or, bare, as an open description). The map stays open: a portal's own fields are keys too.
    if (!fieldsOf && FIELDS_METHOD.test(method.name) && (isBare(type) || isMapOnly(type))) {
      const at = s.blocks.indexOf(found.table);
      const listed: Field[] = [];
      for (const b of s.blocks.slice(at + 1)) {
        if (b.kind !== "table" || used.has(b) || used.has(b.rows) || b.file !== s.heading.file) continue;
        const cols = b.rows[0] ? fieldColumns(b.rows[0]) : null;
        if (!cols) continue;
        used.add(b);
        listed.push(...readFieldRows(scope, cols, b.rows.slice(1)));
      }
      if (listed.length > 0) {
        for (const f of listed) eachNested(f.type, (n) => scope.merged?.add(positionKey(n.source as Source)));
        const described = descriptionsOf(listed);
        const value = type.kind === "object" ? type.additional : undefined;
        if (type.kind === "object" && value && described.kind === "object") type = { ...type, members: described.members.map((f) => ({ ...f, type: value })) };
        else type = described;
      }
    }
    type = labelledTables(type, s, found.table, scope, used);
    type = describedBelow(type, said, s, found.table, scope, used);
  } else if (members.length > 0 && FIELDS_METHOD.test(method.name)) {
    type = descriptionsOf(members);
    source = (members[0] as Field).source;
  } else if (members.length > 0) {
    // The table lists the members of `result` itself.
    type = { kind: "object", members };
    source = (members[0] as Field).source;
  } else return;
  method.result = { type, key: null, description, empty: [], source } satisfies ResultSpec;
}

/** "The result is an array of objects, each containing the following fields:" before a table: result's items. */
const RESULT_ITEMS = /^the result is an? (?:array|list) of objects,? each (?:containing|with|having) the following fields:?$/i;

/**
 * Tables further in the returned data's section that no link reached, each after words that name what it lists:
 * "**Object** `automatedSolution`:" (sections.ts MEMBER_LABEL) gives that member of the result its fields, where its
 * row left it an object, or a list of objects, without members (crm.automatedsolution.get); "The result is an array
 * of objects, each containing the following fields:" gives a bare list result its items (crm.lead.contact.items.get).
 * Another table with a `result` row of its own is another form of the result (calendar.event.update's tabs: an
 * identifier, or an object of the recurring series). A table after other words stays for the ledger (warnUnused).
 */
function labelledTables(type: TypeRef, s: PageSection, first: YfmBlock, scope: FieldScope, used: Set<YfmBlock | YfmCell[][]>): TypeRef {
  let out = type;
  const at = s.blocks.indexOf(first);
  for (let i = at + 1; i < s.blocks.length; i++) {
    const b = s.blocks[i] as YfmBlock;
    const before = s.blocks[i - 1];
    if (b.kind === "heading") break;
    if (b.kind !== "table" || used.has(b) || used.has(b.rows) || b.file !== s.heading.file) continue;
    const cols = b.rows[0] ? fieldColumns(b.rows[0]) : null;
    if (!cols) continue;
    // Another table with a `result` row of its own (calendar.event.update's tabs "Single Event", "Recurring Event"):
    // another form of the result.
    const rows = b.rows.slice(1);
    const names = rowNames(rows, cols);
    if (names.includes("result")) {
      used.add(b);
      const fields = readFieldRows(scope, cols, rows, [], ENVELOPE_ONLY);
      const result = fields.find((f) => f.name === "result");
      // The page's budget of fields may end before the row (readFieldRows warns): nothing to add then.
      if (!result) continue;
      scope.merged?.add(positionKey(result.source as Source));
      const form = withSiblings(result, fields.filter((f) => f.name !== "result"), scope.diagnostics, (f) => scope.merged?.add(positionKey(f.source as Source)));
      // Forms compared without their positions: the same form in two tabs is one.
      const forms = [...(out.kind === "union" ? out.options : [out]), ...(form.kind === "union" ? form.options : [form])];
      const keys = forms.map(typeKey);
      out = { kind: "union", options: forms.filter((_, k) => keys.indexOf(keys[k] as string) === k) };
      continue;
    }
    if (before?.kind !== "text") continue;
    const words = before.text.replace(/\s+/g, " ").trim();
    const label = MEMBER_LABEL.exec(words)?.[1];
    const holder = out.kind === "object" ? out.members : out.kind === "array" && out.items.kind === "object" ? out.items.members : [];
    const target = label !== undefined ? openMember(holder, label) : undefined;
    if (target) {
      used.add(b);
      const object: TypeRef = { kind: "object", members: readFieldRows(scope, cols, b.rows.slice(1)) };
      target.type = target.type.kind === "array" ? { kind: "array", items: object } : object;
    } else if (RESULT_ITEMS.test(words) && out.kind === "array" && out.items.kind === "unknown") {
      used.add(b);
      out = { kind: "array", items: { kind: "object", members: readFieldRows(scope, cols, b.rows.slice(1)) } };
    }
  }
  return out;
}

/**
 * A bare `result` ("Object containing the values of the bank details fields", "An array of objects describing
 * countries") whose fields the next heading's table describes, with no link between them: "### Description of Bank
 * Details Fields", "### Fields of the Country Object" (six crm.requisite.* pages). The heading must name what the
 * row's words name (a content word in common, plural or not), and be the first heading after the returned data's
 * table, its table unread. Words that link elsewhere or list conditions (im.department.*: "When `USER_DATA = 'N'`,
 * contains user IDs") say more than one form, and stay for the ledger's warning.
 */
function describedBelow(type: TypeRef, said: string, s: PageSection, first: YfmBlock, scope: FieldScope, used: Set<YfmBlock | YfmCell[][]>): TypeRef {
  const list = type.kind === "array" && type.items.kind === "unknown";
  if (!(list || (type.kind === "object" && type.members.length === 0 && !type.additional))) return type;
  if (/\]\(|\n[ \t]*-\s/.test(said) || (list && !/\bobjects\b/i.test(said))) return type;
  const at = s.blocks.indexOf(first);
  const heading = s.blocks.findIndex((b, i) => i > at && b.kind === "heading");
  const h = s.blocks[heading];
  if (heading < 0 || h?.kind !== "heading") return type;
  const mine = new Set(contentWords(said));
  if (!contentWords(h.text).some((w) => mine.has(w))) return type;
  for (let i = heading + 1; i < s.blocks.length; i++) {
    const b = s.blocks[i] as YfmBlock;
    if (b.kind === "heading") return type;
    if (b.kind !== "table" || b.file !== s.heading.file) continue;
    const cols = b.rows[0] ? fieldColumns(b.rows[0]) : null;
    if (!cols) continue;
    if (used.has(b) || used.has(b.rows)) return type;
    used.add(b);
    const object: TypeRef = { kind: "object", members: readFieldRows(scope, cols, b.rows.slice(1)) };
    return list ? { kind: "array", items: object } : object;
  }
  return type;
}

/** Words that say what is described, not that it is: "Description of the Requisite Template Fields" is requisite, template. */
const FRAME_WORDS: ReadonlySet<string> = new Set(["a", "an", "and", "array", "containing", "contains", "describe", "describes", "describing", "description", "descriptions", "detailed", "element", "field", "fields", "for", "in", "information", "is", "of", "object", "objects", "on", "the", "that", "to", "type", "value", "values", "with"]);

/** Content words, singular ("countries" is country, "details" detail). */
function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+/g) ?? [])
    .filter((w) => !FRAME_WORDS.has(w) && w.length > 2)
    .map((w) => w.replace(/ies$/, "y").replace(/(?<!s)s$/, ""));
}

/**
 * `result`'s type when the rows after it are its members: a table that types `result` as a bare `object` and then
 * lists `ID`, `NAME`, … beside it (456 method pages) describes result's own members, not members of nothing. A bare
 * `array` with such rows is the PHP word, either a list of such objects or one object keyed by them (disk.file.get
 * answers one object, disk.folder.getChildren a list): both, with an ambiguous-reading warning that says so.
 */
export function withSiblings(result: Field, members: Field[], diagnostics: Diagnostic[], merged: (row: Field) => void): TypeRef {
  const t = result.type;
  const names = members.map((f) => f.name);
  // A `result` typed as a flag or a number with plain rows beside it (tasks.task.delete: `result` boolean, then
  // `task` boolean "Returns `true` if the task was successfully deleted"): the rows are a member the type cell does
  // not show. Both are taken, said: the cell's value, or an object of those rows.
  const scalar = (x: TypeRef): boolean => x.kind === "primitive" || (x.kind === "union" && x.options.every((o) => o.kind === "primitive"));
  if (members.length > 0 && scalar(t) && names.every((n) => /^\w+$/.test(n))) {
    diagnostics.push(
      diagnostic("ambiguous-reading", spanOf(result.source, "result".length), {
        text: `result: ${typeWords(t)}, then ${members.length} member rows (${names.slice(0, 3).join(", ")})`,
        reading: "the type cell's value, or an object of these rows (the cell names no object, the rows give members)",
      }),
    );
    for (const f of members) merged(f);
    return { kind: "union", options: [...(t.kind === "union" ? t.options : [t]), { kind: "object", members }] };
  }
  if (members.length === 0 || !isBare(t)) return t;
  /** One object of `fields`, or (for PHP's `array`) one object or a list of them, said as ambiguous. */
  const shaped = (fields: Field[], list: boolean | null): TypeRef => {
    const object: TypeRef = { kind: "object", members: fields };
    if (list === false) return object;
    if (list === true) return { kind: "array", items: object };
    diagnostics.push(
      diagnostic("ambiguous-reading", spanOf(result.source, "result".length), {
        text: `result: ${typeWords(t)}, then ${members.length} member rows (${names.slice(0, 3).join(", ")}…)`,
        reading: "one object of these members, or an array of such objects (the page's `array`, or `[]` against its type, may be either)",
      }),
    );
    return { kind: "union", options: [object, { kind: "array", items: object }] };
  };
  // `result.dialogId`, `result.events[].eventId`: the rows say where each nests, under result itself. `result.x`
  // under an `object` is one object, `result[].x` under an `array` a list; the two disagreeing is either.
  if (names.every((n) => n.startsWith("result.") || n.startsWith("result[]."))) {
    const [top] = nest([{ ...result, name: "result", type: { kind: "object", members: [] } }, ...members.map((f) => ({ ...f, name: f.name.replace(/^result\[\]\./, "result.") }))], diagnostics);
    const fields = top?.type.kind === "object" ? top.type.members : [];
    const listed = names.every((n) => n.startsWith("result[]."));
    const single = names.every((n) => n.startsWith("result."));
    return shaped(fields, t.kind === "object" && single ? false : t.kind === "array" && listed ? true : null);
  }
  // `employees`, `employees[]`, `employees[].userId`: a row `X[]` beside `X` describes X's items (the same field);
  // alone it is X, an array of its type. Dotted rows nest under the row they name.
  // Sets and maps, not scans: a page's table may hold thousands of rows (linear in them, as every reading is).
  const items = new Set(names.filter((n) => n.endsWith("[]") && !isDotted(n)));
  const nameSet = new Set(names);
  const byName = new Map<string, Field>();
  for (const f of members) if (!byName.has(f.name)) byName.set(f.name, f);
  const dotted = new Set(names.flatMap((n) => (isDotted(n) ? [n.slice(0, n.indexOf(".")).replace(/\[\]$/, "")] : [])));
  const arrayOf = (x: TypeRef): TypeRef => (x.kind === "array" ? x : { kind: "array", items: x });
  // An `X[]` row beside an `X` whose items it does not type (`tags` object, `tags[]` integer) is left to the page's
  // ledger, which warns: only a row that became X (alone) or X's items is said to be merged.
  const rows = members
    .filter((f) => !(items.has(f.name) && nameSet.has(f.name.slice(0, -2))))
    .map((f) => {
      if (items.has(f.name)) {
        merged(f);
        return { ...f, name: f.name.slice(0, -2), type: arrayOf(f.type) };
      }
      // `X` an array of unknown items beside `X[]`: the items are the `X[]` row's.
      const item = items.has(`${f.name}[]`) ? byName.get(`${f.name}[]`) : undefined;
      if (item && f.type.kind === "array" && f.type.items.kind === "unknown" && item.type.kind !== "array") {
        merged(item);
        return { ...f, type: { kind: "array", items: item.type } satisfies TypeRef };
      }
      return f;
    });
  // A row whose value is a bare object or list of objects (`item` object, `items[]` object) with plain rows after
  // it, and neither dotted rows (`item.id`) nor a link that says where its members are: the rows after it may be its
  // members or result's. Read one way, said (ambiguous-reading): after an `X[]` row, its items' members (`members`,
  // `members[]`, then each member's `userId`, `name`); after a bare object (`taskCreators`, a map in words; or
  // crm.item.import's `item`, then `id`), result's own. A bare list of unknown items ("an array of strings") holds no
  // rows.
  const holdsNothing = (x: TypeRef): boolean => (x.kind === "object" && x.members.length === 0) || (x.kind === "array" && holdsNothing(x.items));
  // Whether a row's members are still unread once its links were followed (a link that gave members is no longer bare).
  const open = (f: Field) => holdsNothing(byName.get(`${f.name}[]`)?.type ?? f.type) && !dotted.has(f.name);
  const plain = rows.filter((f) => !isDotted(f.name));
  const said = (f: Field, rest: number, reading: string) => diagnostics.push(diagnostic("ambiguous-reading", spanOf(f.source as Source, f.name.length + 4), { text: `${f.name}: ${typeWords(f.type)}, then ${rest} plain rows`, reading }));
  // Each holder (`X[]` bare, no dotted rows) takes the plain rows after it up to the next holder or the next row that
  // dotted rows extend (`meta`, then `meta.x`): those stay result's own.
  const holders = new Map<Field, Field[]>();
  let holder: Field | null = null;
  for (const [i, f] of plain.entries()) {
    if (items.has(`${f.name}[]`) && open(f) && i < plain.length - 1) {
      holder = f;
      holders.set(f, []);
      continue;
    }
    if (dotted.has(f.name)) holder = null;
    if (holder) holders.get(holder)?.push(f);
    else if (i < plain.length - 1 && open(f)) said(f, plain.length - i - 1, "the rows after it as result's own members, not its (no dotted name or link says where they nest)");
  }
  const taken = new Set<Field>();
  for (const [h, after] of holders) {
    if (after.length === 0) continue;
    said(h, after.length, `the ${after.length} rows after it as the members of its items (no dotted name or link says where they nest)`);
    for (const f of after) taken.add(f);
  }
  // In the table's order, each holder where it stood, its items' rows gone into it.
  const read = rows.flatMap((f) => {
    const after = holders.get(f);
    if (after && after.length > 0) return [{ ...f, type: { kind: "array", items: { kind: "object", members: after } } } as Field];
    return taken.has(f) ? [] : [f];
  });
  const top = names.some(isDotted) ? nest(read, diagnostics) : read;
  const topNames = top.map((f) => f.name);
  // A name twice, or a row left with a bracket or a dot: where it belongs is not shown. Said, not guessed.
  if (new Set(topNames).size < topNames.length || topNames.some((n) => n.includes("[") || isDotted(n))) {
    // Each row at its own line, with why (the page's ledger, below, then counts them as said).
    for (const f of members) {
      diagnostics.push(diagnostic("unplaced", spanOf(f.source as Source, f.name.length + 4), { what: `the row '${f.name}' beside \`result\`: the ${members.length} rows there nest with no sign of where (${names.slice(0, 3).join(", ")}…), so none is read as result's member` }));
    }
    return t;
  }
  return shaped(top, t.kind === "object" ? false : null);
}

/**
 * A fields method's table lists the entity's fields; `result` describes each of them, keyed by its name, with an
 * object of its own (type, required, read-only, title, …): the row's type is the field's, not the value's.
 */
function descriptionsOf(fields: readonly Field[]): TypeRef {
  return {
    kind: "object",
    members: fields.map((f) => ({ ...f, type: { kind: "object", members: [], open: true }, required: false, nullable: false, description: `The description of the field ${f.name} (${typeWords(f.type)}): ${f.description}` })),
    open: true,
  };
}

/** The platform's methods that describe an entity's fields (`crm.deal.fields`, `catalog.product.getFields`). */
const FIELDS_METHOD = /\.(?:fields|getfields)$/i;

/**
 * A `result` row that says each member describes a field: "Object with field descriptions", "Contains a description
 * of the fields of the template", "Array with the description of file fields", "Object with a description of
 * characteristics" (crm.userfield.fields), "Values for the `result` field correspond to [fields of the object]"
 * (crm.activity.fields), "Contains [fields](#fields) linking …", "containing all [comment fields](#fields)", "where
 * `field_N` is the identifier of the [object field](#fields)" (crm.category.fields). Not "Object with field names"
 * (mailservice.fields: names, not descriptions); not any fields method whose `result` links a table
 * (crm.address.fields links the attributes of one field's description, a map by field: fields.ts MAP_WORDS;
 * crm.documentgenerator.template.getfields its result's own `templateFields`).
 */
const DESCRIBES_FIELDS = /\bfield descriptions?\b|\bdescriptions? of (?:the )?\[?(?:[\w-]+ ){0,3}fields\b|\bdescription of characteristics\b|\bvalues for the `?result`? field correspond to \[?fields of the object\b|\bcontain(?:s|ing)? (?:all )?\[?(?:[\w-]+ )?fields\b|\bwhere `?field(?:_N)?`? is the identifier of the \[?object field\b/i;

/** The `false` a row's words added to its type ("Returns `false` if …"). */
function isFalse(t: TypeRef): boolean {
  return t.kind === "primitive" && t.type === "boolean" && t.enum?.length === 1 && t.enum[0] === false;
}

/** Every field nested in `t`, at any depth. */
function eachNested(t: TypeRef, fn: (f: Field) => void): void {
  if (t.kind === "object") {
    for (const f of t.members) {
      fn(f);
      eachNested(f.type, fn);
    }
  } else if (t.kind === "array") eachNested(t.items, fn);
  else if (t.kind === "union") for (const o of t.options) eachNested(o, fn);
}

/**
 * The returned data that the page's `select` shapes (fields.ts `selectable`): a member whose words say "The structure
 * of the object depends on the fields passed in `select`" (socialnetwork.api.workgroup.list's `workgroups`), an
 * object or a list of objects with no members of their own, takes the selectable fields, each optional; a `select`
 * whose fields are "returned in `result`" (socialnetwork.api.workgroup.get) adds them to `result`, each optional,
 * where `result` lacks them; one `result` describes too is held there (`same`: its row is merged into that member).
 */
function selected(t: TypeRef, selectable: FieldScope["selectable"], same: (f: Field) => void): TypeRef {
  const fields = selectable?.fields ?? [];
  if (fields.length === 0 || t.kind !== "object") return t;
  const optional = (list: readonly Field[]) => list.map((f) => ({ ...f, required: false }));
  if (selectable?.into === "result") {
    const have = new Set(t.members.map((f) => f.name));
    for (const f of fields) if (have.has(f.name)) same(f);
    return { ...t, members: [...t.members, ...optional(fields.filter((f) => !have.has(f.name)))] };
  }
  const shaped = (x: TypeRef): TypeRef | null =>
    x.kind === "object" && x.members.length === 0 && !x.additional ? { kind: "object", members: optional(fields), open: true } : x.kind === "array" ? (shaped(x.items) ? { kind: "array", items: shaped(x.items) as TypeRef } : null) : null;
  return { ...t, members: t.members.map((f) => (SELECT_SHAPES.test(f.description) ? { ...f, type: shaped(f.type) ?? f.type } : f)) };
}

/** "The structure of the object depends on the fields passed in `select`". */
const SELECT_SHAPES = /\bdepends on the fields (?:passed|specified|listed|selected) in `?select`?/i;

/** A map with no keys of its own: `{field: attributes}` (fields.ts MAP_WORDS). */
function isMapOnly(t: TypeRef): boolean {
  return t.kind === "object" && t.members.length === 0 && t.additional !== undefined;
}

/** `object` or `array` with nothing known of its members or items. */
function isBare(t: TypeRef): boolean {
  return (t.kind === "object" && t.members.length === 0 && !t.additional) || (t.kind === "array" && t.items.kind === "unknown");
}

/** A field type in words, for a description. */
function typeWords(t: TypeRef): string {
  switch (t.kind) {
    case "primitive":
      return t.type;
    case "array":
      return `array of ${typeWords(t.items)}`;
    case "union":
      return t.options.map(typeWords).join(" or ");
    case "ref":
      return t.resource;
    default:
      return t.kind;
  }
}

/** Rows of a returned-data table that are the envelope's, not the result's. */
const ENVELOPE_ONLY: ReadonlySet<string> = new Set(["time", "total", "next"]);

const PAGING: ReadonlySet<string> = new Set(["total", "next"]);

/** The bold names of a field table's rows. */
function rowNames(rows: YfmCell[][], cols: { name: number }): string[] {
  return rows.map((r) => boldName(r[cols.name]?.text ?? ""));
}

export function readErrors(s: PageSection, scope: PageScope): MethodError[] {
  const errors: MethodError[] = [];
  let code: string | null = null;
  for (const b of s.blocks) {
    if (b.kind === "text") {
      const c = /^Error Code:\s*`([^`]+)`/i.exec(b.text);
      if (c) code = c[1] as string;
      continue;
    }
    if (b.kind === "heading") {
      code = null;
      continue;
    }
    if (b.kind !== "table") continue;
    const header = b.rows[0];
    if (!header) continue;
    // The error body's own description (error-info.md, error-info-v3.md) is the envelope's, not an error list.
    if (/_includes\/error-info(-v3)?\.md$/.test(b.file)) continue;
    // The system errors are the catalogue, which the front end reads once from their include.
    if (/_includes\/system-errors\.md$/.test(b.file)) continue;
    const cols = errorColumns(header);
    if (!cols) {
      scope.diagnostics.push(diagnostic("unknown-table-column", spanOf(b, 2), { header: header.map((c) => c.text.replace(/\s+/g, " ")).join(" | "), known: "'Code | Description | Value'" }));
      continue;
    }
    errors.push(...readErrorRows(cols, b.rows.slice(1), code));
  }
  return errors;
}
