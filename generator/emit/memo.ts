import { hash } from "node:crypto";
import type { Model } from "../model/view.js";
import type { FragmentCache } from "../source/index.js";

/**
 * The printed texts of earlier runs (issue 28's rerun after one page changed): the emit stage's two costly printers,
 * a TypeScript declaration's layout (ts/layout.ts) and an OpenAPI document's YAML (openapi/yaml.ts), are pure
 * functions of plain data. A rerun of the whole reference prints the same declarations, path items and schemas
 * again (13,600 distinct texts, 24 MB); with a memo, each is printed once and found by a hash of the data it was
 * printed from.
 *
 * The memo is the same contract as the front ends' fragment cache (source/index.ts): entries of earlier runs in, this
 * run's out, its `salt` the generator's build, kept by the caller (the CLI, in the config's `cache` folder). A run's
 * output is the same bytes with and without it (test/reference/updates.test.ts), and the emitters never see it:
 * `withPrintMemo` lends it to the printers for one synchronous stretch of emitting, so no two runs share it.
 */
export type PrintMemo = FragmentCache;

/** The memo lent, and what this lending keeps of the model's nodes (their keys, taken once a lending). */
interface Lending {
  memo: PrintMemo;
  /** The keys of the texts printed while each enclosing `memoized` printed (innermost last). */
  printing: string[][];
  texts: WeakMap<object, string>;
  contexts: WeakMap<object, string>;
}

let lent: Lending | null = null;

/** Runs `emit` (synchronous) with the printers reading and filling `memo`; without a memo, `emit` as it is. */
export function withPrintMemo<T>(memo: PrintMemo | undefined, emit: () => T): T {
  if (!memo) return emit();
  const outer = lent;
  // The nodes' keys live as long as the lending: the model is not changed while it is emitted, and a later lending
  // takes them anew rather than trust a node that may have changed since.
  lent = { memo, printing: [], texts: new WeakMap(), contexts: new WeakMap() };
  try {
    return emit();
  } finally {
    lent = outer;
  }
}

/** Whether a memo is lent: a printer that would take its input apart only to look the parts up asks first. */
export function memoLent(): boolean {
  return lent !== null;
}

/**
 * The text `print` gives for `data`, from the lent memo when an earlier run printed the same data with the same
 * printer (`printer` names it and whatever else the text depends on), else printed now and kept for the next run.
 *
 * A text printed from texts of other printers (a method's types from its declarations' layouts) keeps their keys in
 * an entry of its own; when it is found, they are kept for the next run too, though nothing looked them up. Else one
 * run that found the whole would drop its parts, and the next change of the whole would print every part anew.
 */
export function memoized(printer: string, data: () => string, print: () => string): string {
  const lending = lent;
  if (!lending) return print();
  const { memo, printing } = lending;
  const key = hash("sha256", `${printer}\0${data()}`, "base64");
  const now = memo.next.get(key);
  const earlier = now ?? memo.entries.get(key);
  let text: string;
  if (typeof earlier === "string") {
    text = earlier;
    // Found in this run's entries, it was printed or kept with its parts already.
    if (now === undefined) keepParts(memo, key);
  } else {
    printing.push([]);
    try {
      text = print();
    } finally {
      const parts = printing.pop() ?? [];
      if (parts.length > 0) memo.next.set(partsKey(key), parts.join("\n"));
    }
  }
  memo.next.set(key, text);
  printing[printing.length - 1]?.push(key);
  return text;
}

/** The key of the entry that lists the keys a text was printed from (a key is base64: no line breaks in it). */
const partsKey = (key: string) => `${key}\0parts`;

/** Keeps for the next run the texts `key`'s text was printed from, and theirs, as the memo holds them. */
function keepParts(memo: PrintMemo, key: string): void {
  const listed = memo.next.get(partsKey(key)) ?? memo.entries.get(partsKey(key));
  if (typeof listed !== "string") return;
  memo.next.set(partsKey(key), listed);
  for (const part of listed.split("\n")) {
    if (memo.next.has(part)) continue;
    const text = memo.entries.get(part);
    if (typeof text !== "string") continue;
    memo.next.set(part, text);
    keepParts(memo, part);
  }
}

/**
 * The memo's key of plain data: its JSON, with what JSON would lose told apart (`-0`, NaN, the infinities, a Date,
 * and what JSON leaves out), so that two values give one key only when every printer prints them alike.
 */
export function dataKey(value: unknown): string {
  // Plain data, as the model and the documents are: its JSON as it is, without a call back into JavaScript per value.
  if (plain(value)) return JSON.stringify(value);
  return JSON.stringify(value, function (this: Record<string, unknown>, k: string, v: unknown) {
    // A date is its ISO string here already (JSON calls `toJSON` first); the raw value says it was a date.
    if (this[k] instanceof Date) return { "\u0000date": v };
    if (v === undefined || typeof v === "function" || typeof v === "symbol") return { "\u0000absent": typeof v };
    if (typeof v !== "number" || (Number.isFinite(v) && !Object.is(v, -0))) return v;
    return { "\u0000number": Object.is(v, -0) ? "-0" : Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity" };
  });
}

/** Whether JSON tells `value` apart from every other value: strings, booleans, null, finite numbers but -0, and plain objects and arrays of them. */
function plain(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value === "string" || typeof value === "boolean" || value === null) return true;
  if (typeof value !== "object") return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !plain(value[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k in value) if (!plain((value as Record<string, unknown>)[k])) return false;
  return true;
}

/** A model node's key (dataKey), taken once a lending: the data a memoized text printed from the node is found by. */
export function nodeText(node: object): string {
  const texts = lent?.texts;
  let text = texts?.get(node);
  if (text === undefined) {
    text = dataKey(node);
    texts?.set(node, text);
  }
  return text;
}

/**
 * A hash of the whole model but its methods and event payloads: what one method's printed texts may depend on beyond
 * the method itself (the known gaps, the platform's facts, the resources, the sections `@see` points into). A text
 * printed from a method is found by this, the method's own key (`nodeText`) and whatever else its printer reads (the
 * shipped spec's path), so that a rerun after one page changed prints only that page's methods again; any other
 * change of the model prints them all.
 */
export function methodContext(model: Model): string {
  const contexts = lent?.contexts;
  let key = contexts?.get(model);
  if (key === undefined) {
    const { methods: _methods, eventPayloads: _events, ...rest } = model;
    key = hash("sha256", dataKey(rest), "base64");
    contexts?.set(model, key);
  }
  return key;
}
