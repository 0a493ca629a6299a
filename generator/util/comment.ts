/**
 * The one escaper for text that goes into a comment of generated code, used by every emitter and template
 * (issue 24: the server emitter removed `*\/` in one pass, so `**\/\/` became `*\/` and a description ran as code in
 * the user's skeleton). Written by hand: it is two replacements, and what counts is that every emitter shares them.
 */

/** Every character sequence that ends a line for a JavaScript scanner (and so a `//` comment). */
const LINE_END = /\r\n|[\r\n\u2028\u2029]/g;
/** A line end with the white space around it, as a one-line comment joins the lines of a text. */
const LINE_BREAK = /\s*(?:\r\n|[\r\n\u2028\u2029])\s*/g;

/**
 * Text that stays inside a block comment (`/* … *\/`, JSDoc): each `*\/` becomes `*\\/`, which shows the same in an
 * editor's hover and cannot close the comment. One pass is enough: the replacement holds no `*\/` and cannot form one
 * with its neighbours, since it starts with the `*` it replaced and ends with `/`. Line breaks are kept unless
 * `oneLine`, which joins the lines with one space (a one-line `/** … *\/`).
 */
export function blockCommentText(text: string, options: { oneLine?: boolean } = {}): string {
  const safe = String(text).replace(/\*\//g, "*\\/");
  return options.oneLine ? safe.replace(LINE_BREAK, " ") : safe;
}

/** Text that stays inside a `//` comment: every line ending (CR, LF, U+2028, U+2029) becomes a space. */
export function lineCommentText(text: string): string {
  return String(text).replace(LINE_END, " ");
}
