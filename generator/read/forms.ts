import type { Method } from "../model/types.js";

/**
 * The sentence forms of a method section, one row each (decisions.md D30): a new way of saying a fact of a method
 * is a row here, never a branch of the chain in methods.ts. `match` sees the sentence with its spaces collapsed;
 * `read` folds it into the method and says whether the sentence is placed whole (`placed`) or is also read on by the
 * chain (`read-on`: the sentence stays the method's description as before, the row adds a typed fact to it).
 * `doc` is the row of spec-source/README.md's table of method forms, whose example a test reads.
 */
export interface SentenceForm {
  id: string;
  match: RegExp;
  read: (method: Method, sentence: string) => "placed" | "read-on";
  doc: { example: string; fact: string };
}

export const METHOD_FORMS: readonly SentenceForm[] = [
  {
    id: "result-is-caller",
    match: /^Returns the (?:current )?user (?:whose (?:access )?token (?:was|is) used|who (?:made|makes) the (?:call|request))\b/i,
    read: (m) => {
      m.resultSubject = "caller";
      return "read-on";
    },
    doc: { example: "Returns the user whose token was used.", fact: "the result describes the caller (`resultSubject: caller`)" },
  },
];

/** The first form the sentence has, applied; null when it has none. */
export function readMethodForm(method: Method, sentence: string): "placed" | "read-on" | null {
  for (const form of METHOD_FORMS) if (form.match.test(sentence)) return form.read(method, sentence);
  return null;
}
