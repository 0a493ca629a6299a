/**
 * Every non-empty line of a text prefixed with `indent`; an empty line stays empty, as prettier's document printer
 * and js-yaml leave it. The print memo's texts are printed at the margin and indented to their depth with it.
 */
export function indentLines(text: string, indent: string): string {
  if (indent === "") return text;
  return text
    .split("\n")
    .map((l) => (l === "" ? l : indent + l))
    .join("\n");
}
