import type { Field, Resource } from "../model/types.js";
import { type Text, sliceText, trimText } from "../parse/markdown.js";
import { type ReadContext, sourceOf, statement } from "./inline.js";
import { readReturnedBy, readVersionKey } from "./links.js";
import { type TypingRules, mergeRules, readFieldList, readTypingRules } from "./field-lists.js";
import { SEE_METHOD, SEE_PARAMS, addLinks, nullableByPrefix, readGapSentence } from "./resource-parts.js";
import { readResourceBody } from "./resource-body.js";

/**
 * The sentence forms of a section under "Resources and their fields" (spec-source/README.md#resources), as rows of a
 * table (style.md), and the state the section's reader (read/resources.ts) keeps from block to block.
 */

/** What the reader of one resource section keeps from block to block. */
export interface SectionState {
  ctx: ReadContext;
  r: Resource;
  /** The typing sentence(s) read so far: they type the fields listed after them. */
  rules: TypingRules | null;
  /** Resources the section defines besides its own ("**Field labels** (`m`): …"). */
  extra: Resource[];
  /** A map's sentences that end in "with these keys:": the next paragraph lists the keys. */
  keysFollow: string | null;
  /** "Fields:" ending a sentence: the next sentence or paragraph is the field list. */
  listFollows: boolean;
  /** "Members of `ASSIGNED_BY`:" (or "`ASSIGNED_BY`:") before a table: the table lists that field's members. */
  membersOf: Field | null;
}

/** A sentence of a resource section's paragraph as RESOURCE_SENTENCES' rows see it. */
export interface ResourceSentence {
  st: SectionState;
  sentence: Text;
  /** The sentence with its spaces collapsed. */
  s: string;
}

/**
 * The sentence forms of a resource section, tried in order (style.md: forms are rows of a table): a row reads the
 * sentence into the resource and says true, or declines it. Each row's comment is an example of its form.
 */
export const RESOURCE_SENTENCES: ReadonlyArray<{ id: string; read: (x: ResourceSentence) => boolean }> = [
  {
    // "Item of the `m` result." / "Item of: `m`": the resource is an item of that method's result.
    id: "item-of",
    read: ({ st, sentence, s }) => {
      const itemOf = /^Item of:?\s*(?:the\s+)?`([^`]+)`(?:\s+result)?\.?(?:\s*Fields:?)?$/i.exec(s);
      if (!itemOf) return false;
      addLinks(st.r, [{ method: itemOf[1] ?? "", version: null, key: null, many: true, source: sourceOf(st.ctx, sentence) }]);
      st.r.notes.push(statement(st.ctx, sentence));
      st.listFollows = /\bFields:?$/i.test(s);
      return true;
    },
  },
  {
    // "The fields are:": the next sentence or paragraph is the field list.
    id: "fields-follow",
    read: ({ st, sentence, s }) => {
      if (!/^(?:the )?fields(?: are)?\s*:$/i.test(s)) return false;
      st.listFollows = true;
      st.r.notes.push(statement(st.ctx, sentence));
      return true;
    },
  },
  {
    // "Fields: ID, NAME, …" (or the list after "Fields:"): the resource's fields, as a resource bullet's.
    id: "field-list",
    read: ({ st, sentence, s }) => {
      if (!st.listFollows && !/^(?:the )?fields(?: are)?\s*:?\s+[`A-Z_]/i.test(s)) return false;
      st.listFollows = false;
      readResourceBody(st.ctx, st.r, sentence);
      return true;
    },
  },
  {
    // "Returned by `m`: an object of localized strings with the keys …": the link, then the resource's shape.
    id: "returned-by-shape",
    read: ({ st, sentence, s }) => {
      const shaped = /^((?:The [\w ]+? (?:is|are) )?[Rr]eturned by:?\s*`[^`]+`)\s*:\s*(\S.*)$/.exec(s);
      if (!shaped) return false;
      const links = readReturnedBy(shaped[1] ?? "", sourceOf(st.ctx, sentence));
      const colon = sentence.text.indexOf(":", sentence.text.indexOf("`", sentence.text.indexOf("`") + 1));
      if (!links || colon <= 0) return false;
      addLinks(st.r, links);
      readResourceBody(st.ctx, st.r, trimText(sliceText(sentence, colon + 1)));
      return true;
    },
  },
  {
    // "The result of adding an external line is an object with `ID` (integer)."
    id: "result-of",
    read: ({ st, sentence, s }) => {
      if (!/^(?:the )?result of \w+ing\b.* is an object (?:with|containing) /i.test(s)) return false;
      readResourceBody(st.ctx, st.r, sentence);
      return true;
    },
  },
  {
    // "The SMTP fields may be null when they are not set.": the fields named `SMTP_…` are nullable.
    id: "nullable-by-prefix",
    read: ({ st, sentence, s }) => {
      if (!nullableByPrefix(st.r, s)) return false;
      st.r.notes.push(statement(st.ctx, sentence));
      return true;
    },
  },
  {
    // "See [Set Calendar Settings calendar.user.settings.set](#…) under Methods.": the resource is that method's
    // object parameter.
    id: "see-method",
    read: ({ st, sentence, s }) => {
      const pointer = SEE_METHOD.exec(s);
      if (!pointer || st.r.type.kind !== "object" || st.r.type.members.length !== 0) return false;
      st.r.type = { kind: "unresolved", by: "see", text: pointer[1] ?? pointer[2] ?? "" };
      st.r.notes.push(statement(st.ctx, sentence));
      return true;
    },
  },
  {
    // "Fields CODE, HANDLER, NAME, DESCRIPTION. See [… messageservice.sender.update](#…) under Methods.": the fields
    // listed are that method's parameters, as "CODE, …; see Endpoints" says.
    id: "fields-are-params",
    read: ({ st, sentence, s }) => {
      const r = st.r;
      if (!(SEE_METHOD.test(s) || SEE_PARAMS.test(s)) || r.type.kind !== "object" || r.fieldsAreParams || r.type.members.length === 0 || !r.type.members.every((f) => f.type.kind === "unknown")) return false;
      r.fieldsAreParams = true;
      r.notes.push(statement(st.ctx, sentence));
      return true;
    },
  },
  {
    // "Each entry of `QUESTIONS` has: `ID`, `ACTIVE`, … and `ANSWERS` (keyed by answer id).": the values of the
    // member `QUESTIONS`, a map the table keyed, have these fields.
    id: "entries-of",
    read: ({ st, sentence, s }) => {
      const r = st.r;
      const entries = /^Each (?:entry|value|item|element) of `([A-Za-z_]\w*)` has:?\s+(.+)$/.exec(s);
      const holder = entries && r.type.kind === "object" ? r.type.members.find((f) => f.name === entries[1]) : undefined;
      if (!entries || !holder || holder.type.kind !== "object" || holder.type.members.length !== 0 || (holder.type.additional && holder.type.additional.kind !== "unknown")) return false;
      const has = /\bhas:?\s+/.exec(sentence.text);
      const at = trimText(sliceText(sentence, has ? has.index + has[0].length : 0));
      const list = readFieldList(at.text, st.rules, undefined, at, st.ctx).fields;
      holder.type = { ...holder.type, additional: { kind: "object", members: list } };
      r.notes.push(statement(st.ctx, sentence));
      return true;
    },
  },
  {
    // "Returned by `tasks.task.get` (`result.task`).", "In 3.0, `x` uses the key `item`.": the resource's links.
    id: "returned-by",
    read: ({ st, sentence, s }) => {
      const returned = readReturnedBy(s, sourceOf(st.ctx, sentence)) ?? readVersionKey(s, sourceOf(st.ctx, sentence));
      if (!returned) return false;
      addLinks(st.r, returned);
      st.r.notes.push(statement(st.ctx, sentence));
      return true;
    },
  },
  {
    // "Identifiers and counters are decimal strings; flags are strings `Y`/`N`; dates are ISO 8601 or null."
    id: "typing-rules",
    read: ({ st, sentence, s }) => {
      const typing = readTypingRules(s);
      if (!typing) return false;
      st.rules = mergeRules(st.rules, typing);
      st.r.typingRules.push(statement(st.ctx, sentence));
      return true;
    },
  },
  {
    // "Full field list: not shown.": a known gap of the resource.
    id: "gap",
    read: ({ st, sentence }) => readGapSentence(st.ctx, sentence, [`resource:${st.r.name}`]),
  },
];
