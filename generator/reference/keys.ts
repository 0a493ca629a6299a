import { keyFormPattern } from "../model/key-forms.js";
import type { Field, TypeRef } from "../model/types.js";

/**
 * Rows whose bold name is a form of keys, not a key: `UF_...` and `UF_*` (crm.company.add's custom fields),
 * `ufCrm...`, `PARENT_ID_...`, `<field_code>` (documentgenerator.document.add's values), `\<userId\>` (the users of
 * imopenlines.session.history.get, keyed by id), `upload{id}` (im.disk.file.commit's files), `{BOT_ID}` (an event's
 * bots, also written `/{BOT_ID/}`). No answer carries a member called `UF_...`: such a row says which keys the object
 * takes beyond its members, and what each holds. Read as a member, it typed a key that never comes, and left the keys
 * that do come untyped.
 *
 * The object keeps each such row in `keys` (name, type, words, position), with `keyNames` (the forms as written) and
 * `keyDescription` (each form with its row's words). A form with a literal part (`UF_...`) leaves the object's
 * `additional` (the values under other keys) as it was: the printers say the form itself (a TypeScript template
 * literal signature; the documents' `x-key-patterns`, since OpenAPI 3.0 has no `patternProperties`), and keys of no
 * form stay what they were for that object (a closed object's generated server ignores them, as the platform does).
 * A form that is any key (`<userId>`: every key an id) is what every other key holds: `additional` takes the forms'
 * types, beside a map's own.
 *
 * Only members are read so: a method's parameter with such a name (log.blogpost.add's `UF_*`) stays as the table
 * gives it, since a method's parameters have no "other keys" to carry it.
 */

/** A placeholder in a name: `<userId>`, `{id}`, escaped as `\<userId\>` or `/{BOT_ID/}` on some pages. */
const PLACEHOLDER = /<[A-Za-z_]\w*>|\{[A-Za-z_]\w*\}/;
/** A prefix and "and so on": `UF_...`, `UF_CRM_…`, `UF_*` (the bare `*` of a select is a value, not a form). */
const PREFIX_FORM = /^[A-Za-z_]\w*(?:\.\.\.|…|\*)$/;

/** The name as the page means it: the escapes the pages use around a placeholder dropped. */
export function keyForm(name: string): string | null {
  const plain = name.replace(/\\([<>{}*])/g, "$1").replace(/\/([{}])/g, "$1");
  return PLACEHOLDER.test(plain) || PREFIX_FORM.test(plain) ? plain : null;
}

/** The type with every object's key-form members moved to its keys; the same object where none is one. */
export function withKeyForms(t: TypeRef): TypeRef {
  switch (t.kind) {
    case "object": {
      const members = t.members.map(withKeyFormsIn);
      const keys = members.filter((m) => keyForm(m.name) !== null);
      const additional = t.additional ? withKeyForms(t.additional) : undefined;
      const changed = keys.length > 0 || members.some((m, i) => m !== t.members[i]) || additional !== t.additional;
      if (!changed) return t;
      if (keys.length === 0) return { ...t, members, ...(additional ? { additional } : {}) };
      const forms = keys.map((k) => keyForm(k.name) as string);
      const values = keys.map((k) => (k.nullable ? nullable(k.type) : k.type));
      // The forms' values, one type where all agree. A form that is any key (`<userId>`: every key an id) says what
      // every other key holds, open or not, and those keys may be of the other forms too: all the forms' types.
      const one = values.every((v) => JSON.stringify(v) === JSON.stringify(values[0])) ? (values[0] as TypeRef) : { kind: "union" as const, options: values };
      const anyKey = forms.some((f) => keyFormPattern(f) === null);
      const value: TypeRef | undefined = !anyKey ? additional : additional && JSON.stringify(additional) !== JSON.stringify(one) ? { kind: "union", options: [additional, one] } : one;
      const words = keys.map((k, i) => `\`${forms[i]}\`${k.description ? ` (${k.description.replace(/\.$/, "")})` : ""}`).join(" or ");
      const rest = members.filter((m) => keyForm(m.name) === null);
      return {
        ...t,
        members: rest,
        keys: [...(t.keys ?? []), ...keys.map((k, i) => ({ ...k, name: forms[i] as string }))],
        keyNames: [...(t.keyNames ?? []), ...forms],
        keyDescription: t.keyDescription ? `${t.keyDescription}; ${words}` : words,
        ...(value ? { additional: value } : {}),
      };
    }
    case "array": {
      const items = withKeyForms(t.items);
      return items === t.items ? t : { ...t, items };
    }
    case "union": {
      const options = t.options.map(withKeyForms);
      return options.every((o, i) => o === t.options[i]) ? t : { ...t, options };
    }
    default:
      return t;
  }
}

/** A field whose type's objects have their key forms read; the same field where nothing changed. */
export function withKeyFormsIn(f: Field): Field {
  const type = withKeyForms(f.type);
  return type === f.type ? f : { ...f, type };
}

function nullable(t: TypeRef): TypeRef {
  return t.kind === "union" ? { ...t, options: [...t.options, { kind: "null" }] } : { kind: "union", options: [t, { kind: "null" }] };
}
