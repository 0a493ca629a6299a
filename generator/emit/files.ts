/** A generated file: a path relative to the output folder, with `/` separators, and its text. */
export interface GeneratedFile {
  path: string;
  contents: string;
  /** Created only when absent; the user's copy is kept on later runs (handler skeletons). */
  userOwned?: boolean;
  /** Data, not code to read: left as emitted by the formatter. */
  raw?: boolean;
}

/** JSON as every generated JSON file is written: two spaces, `\n` line ends, a final newline. */
export function jsonFile(path: string, value: unknown): GeneratedFile {
  return { path, contents: `${JSON.stringify(value, null, 2)}\n` };
}
