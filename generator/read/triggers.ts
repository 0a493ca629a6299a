import type { ErrorTrigger, Field, MethodError } from "../model/types.js";

/**
 * Which failure of which parameter an error of a method answers, where the spec says so (spec-source/README.md#what-triggers-an-error).
 * The forms, in the error's cause (a parenthesis or the words after the code) or in its quoted text:
 *
 *     code `0`, text `wrong task id` (taskId of wrong type)        → taskId, wrong type
 *     code `100`, text `…` (bad `users`; "Bad `users` value")      → users, wrong type
 *     code `100` with a text about … (taskId missing)              → taskId, missing
 *     `ERROR_CORE`: `PHONE_NUMBER is empty`                        → PHONE_NUMBER, missing
 *     `ERROR_SENDER_CODE_REQUIRED` (`CODE is required!`)           → CODE, missing
 *     `ERROR_ARGUMENT` (texts: `Argument 'EVENT' is null or empty`) → event, missing
 *     `INVALID_ARGUMENT` with `CALL_ID must be a string`           → CALL_ID, wrong type
 *     `BAD_STATUS` (STATUS not an allowed value)                   → STATUS, a value not allowed
 *     `NEED_ONE` (`USER_ID or USER_PHONE_INNER` must be given)      → none of that "at least one of" set
 *
 * The parameter must be one of the method's own (its name as written, or the same letters in another case, as in
 * `'EVENT'` for `event`); a form that names no parameter of the method links nothing. Only an error with a code
 * (an empty code counts) can answer a failure, so an error without one links nothing either.
 */

type Failure = ErrorTrigger["failure"];

const NAME = "`?'?([A-Za-z_][\\w.]*)'?`?";

/** Forms of a cause: the words the spec writes after the code, in a parenthesis or as prose. */
const CAUSE_FORMS: Array<[RegExp, Failure]> = [
  [new RegExp(`^${NAME}\\s+(?:of\\s+)?(?:a\\s+)?wrong\\s+type$`, "i"), "type"],
  [new RegExp(`^(?:bad|invalid|wrong)\\s+${NAME}(?:\\s+value)?$`, "i"), "type"],
  [new RegExp(`^${NAME}\\s+(?:is\\s+)?(?:missing|not\\s+given|absent|empty)$`, "i"), "missing"],
  [new RegExp(`^(?:missing|no)\\s+${NAME}$`, "i"), "missing"],
  [new RegExp(`^${NAME}\\s+(?:is\\s+)?not\\s+(?:an?\\s+)?allowed(?:\\s+value)?$`, "i"), "value"],
  [new RegExp(`^(?:unknown|unsupported|invalid|wrong)\\s+value\\s+of\\s+${NAME}$`, "i"), "value"],
];

/** Forms of a quoted text: the platform's own messages. */
const TEXT_FORMS: Array<[RegExp, Failure]> = [
  [new RegExp(`^${NAME}\\s+(?:is\\s+empty|should\\s+not\\s+be\\s+empty|must\\s+not\\s+be\\s+empty|is\\s+required!?|is\\s+not\\s+set)\\.?$`, "i"), "missing"],
  [new RegExp(`^Argument\\s+${NAME}\\s+is\\s+null\\s+or\\s+empty\\.?$`, "i"), "missing"],
  [new RegExp(`^${NAME}\\s+must\\s+be\\s+(?:an?\\s+)?(?:string|integer|number|array|object|boolean)\\.?$`, "i"), "type"],
  [new RegExp(`^${NAME}\\s+must\\s+be\\s+one\\s+of\\b.*$`, "i"), "value"],
];

/** "(an error that) `A or B` must be given", "none of A, B given": a set that must match an "at least one of" of the method. */
const NONE_OF = /^(?:an?\s+error\s+that\s+)?(?:none\s+of\s+|neither\s+)?([A-Za-z_][\w.]*(?:\s*(?:,|\bor\b|\bnor\b)\s*[A-Za-z_][\w.]*)+)\s+(?:must\s+be|is|are|was)\s+(?:given|set|passed)\.?$/i;

function parameterNamed(name: string, params: Field[]): string | null {
  const exact = params.find((p) => p.name === name);
  if (exact) return exact.name;
  const other = params.filter((p) => p.name.toLowerCase() === name.toLowerCase());
  return other.length === 1 ? (other[0]?.name ?? null) : null;
}

/**
 * The parameter and failure an error answers, or null when the spec does not say (or names no parameter of the
 * method). `groups` are the method's "at least one of" sets, in the order the router names them.
 */
export function errorTrigger(e: MethodError, params: Field[], groups: string[][] = []): ErrorTrigger | null {
  if (e.code === null) return null;
  const candidates: Array<[string, Array<[RegExp, Failure]>]> = [
    // Each clause of the cause, and what a parenthesis inside one holds ("a text about … (taskId missing)").
    ...(e.cause ?? "")
      .split(/;\s*/)
      .flatMap((c) => [c, ...[...c.matchAll(/\(([^()]*)\)/g)].map((m) => m[1] ?? "")])
      .map((c): [string, Array<[RegExp, Failure]>] => [c.trim(), CAUSE_FORMS]),
    ...(e.text === null ? [] : [[e.text.trim(), TEXT_FORMS] as [string, Array<[RegExp, Failure]>]]),
  ];
  for (const [words, forms] of candidates) {
    const set = NONE_OF.exec(words.replace(/`/g, ""));
    if (set) {
      const names = (set[1] ?? "").split(/\s*(?:,|\bor\b|\bnor\b)\s*/).filter(Boolean);
      const group = groups.find((g) => g.length === names.length && names.every((n) => g.includes(n)));
      if (group) return { parameter: group.join(", "), failure: "none-of", words };
    }
    for (const [form, failure] of forms) {
      const m = form.exec(words);
      const parameter = m ? parameterNamed(m[1] ?? "", params) : null;
      if (parameter) return { parameter, failure, words };
    }
  }
  return byMethodFacts(e, params, groups);
}

/**
 * Texts that name no parameter but point at one through the method's own facts:
 *
 *     `Value must be one of {online|offline}`        → the one parameter with exactly those allowed values
 *     `At least one other parameter is required!`     → none given of the method's one "at least one of" set
 *     `wrong task id`                                 → `taskId` (or `id`, the method's only id) of a wrong type
 *     `ERROR_UNSUPPORTED_PROTOCOL` (a code alone)     → the one parameter with URL schemes, of a scheme not among them
 *     `ERROR_WRONG_HANDLER_URL` (a code alone)        → that parameter, named by the code (`HANDLER`), no URL at all
 */
function byMethodFacts(e: MethodError, params: Field[], groups: string[][]): ErrorTrigger | null {
  const words = (e.text ?? "").trim();
  // A code that says its failure, of the method's one parameter the spec gives URL schemes (`handler`: "URL with
  // scheme `http` or `https`"), where no words say another: a scheme not among them is a value not allowed; a value
  // that is no URL, where the code names the parameter, a wrong type (the parameter's type is a URL).
  const urls = params.filter((p) => (p.schemes?.length ?? 0) > 0);
  const url = urls.length === 1 ? urls[0] : undefined;
  if (url && e.code !== null && !words) {
    // By the code's last words, compared, not searched: a pattern that looks for `_…_URL` from each `BAD_` of a long
    // code took time in the square of its length.
    const ends = (tail: string) => e.code === tail || (e.code?.endsWith(`_${tail}`) ?? false);
    if (ends("UNSUPPORTED_PROTOCOL") || ends("UNSUPPORTED_SCHEME")) return { parameter: url.name, failure: "value", words: e.code };
    const name = url.name.toUpperCase();
    if (/^[A-Z][A-Z0-9_]*$/.test(name) && ["WRONG", "INVALID", "BAD"].some((w) => ends(`${w}_${name}_URL`))) return { parameter: url.name, failure: "type", words: e.code };
  }
  const oneOf = /^Value must be one of \{([^{}]+)\}\.?$/i.exec(words);
  if (oneOf) {
    const values = (oneOf[1] ?? "").split("|").map((v) => v.trim()).sort();
    const fits = params.filter((p) => p.type.kind === "primitive" && p.type.enum && [...p.type.enum].map(String).sort().join("|") === values.join("|"));
    if (fits.length === 1 && fits[0]) return { parameter: fits[0].name, failure: "value", words };
  }
  // "wrong task id" of a method whose id parameter is `taskId`, or `id` alone (`tasks.task.unpin`).
  const wrongId = /^(?:wrong|invalid|bad) ([a-z]+) id$/i.exec(words);
  if (wrongId) {
    const noun = (wrongId[1] ?? "").toLowerCase();
    const named = params.find((p) => p.name === `${noun}Id`) ?? params.find((p) => p.name === "id");
    if (named) return { parameter: named.name, failure: "type", words };
  }
  if (/^At least one (?:other )?parameter is required!?\.?$/i.test(words) && groups.length === 1 && groups[0]) {
    return { parameter: groups[0].join(", "), failure: "none-of", words };
  }
  return null;
}
