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

let lent: PrintMemo | null = null;

/** Runs `emit` (synchronous) with the printers reading and filling `memo`; without a memo, `emit` as it is. */
export function withPrintMemo<T>(memo: PrintMemo | undefined, emit: () => T): T {
  if (!memo) return emit();
  const outer = lent;
  lent = memo;
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
 */
export function memoized(printer: string, data: () => string, print: () => string): string {
  const memo = lent;
  if (!memo) return print();
  const key = hash("sha256", `${printer}\0${data()}`, "base64");
  const earlier = memo.next.get(key) ?? memo.entries.get(key);
  const text = typeof earlier === "string" ? earlier : print();
  memo.next.set(key, text);
  return text;
}

/** The JSON text of each model node a key was asked of, once per node: the model is plain data, unchanged while it is emitted. */
const texts = new WeakMap<object, string>();

/** A model node's JSON text: the data a memoized text printed from the node is found by. */
export function nodeText(node: object): string {
  let text = texts.get(node);
  if (text === undefined) {
    text = JSON.stringify(node);
    texts.set(node, text);
  }
  return text;
}

const contexts = new WeakMap<object, string>();

/**
 * A hash of the whole model but its methods and event payloads: what one method's printed texts may depend on beyond
 * the method itself (the known gaps, the platform's facts, the resources, where `@see` points). A text printed from a
 * method is found by this and the method's own JSON (`nodeText`), so that a rerun after one page changed prints only
 * that page's methods again; any other change of the model prints them all.
 */
export function methodContext(model: Model): string {
  let key = contexts.get(model);
  if (key === undefined) {
    key = hash("sha256", JSON.stringify(model, function (this: unknown, k, v: unknown) {
      return this === model && (k === "methods" || k === "eventPayloads") ? undefined : v;
    }), "base64");
    contexts.set(model, key);
  }
  return key;
}
