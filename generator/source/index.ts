/**
 * The input of a run as the front ends see it (issue 27): a source of files, read from the disk by the CLI or handed
 * in by a caller, so that the core stays pure. The shipped spec is a source of one file; the platform's reference is
 * a folder of many. `path` is relative to `root` and uses `/`; it is the file every position of the model names.
 */
export interface InputFile {
  path: string;
  text: string;
}

export interface InputSource {
  /** The dialect, when the caller knows it; otherwise the front ends' `detect` decides. */
  kind?: string;
  /** The folder the paths are relative to, as the messages show it (`.` for a single spec file). */
  root: string;
  files: InputFile[];
}

/** A source of one file: today's spec, and what `generate(specText, options)` reads. */
export function oneFile(path: string, text: string): InputSource {
  return { root: ".", files: [{ path, text }] };
}

/**
 * Whether a text is in YFM, the platform's reference dialect: a `#|` … `|#` table or a `{% note %}`, `{% include %}`,
 * `{% list tabs %}`, `{% cut %}` block opening a line. The spec's dialect has none; front ends ask it in `detect`.
 */
export function looksLikeYfm(text: string): boolean {
  return (/^[ \t]*#\|[ \t]*$/m.test(text) && /^[ \t]*\|#[ \t]*$/m.test(text)) || /^[ \t]*\{%[ \t]*(?:note|include|list|cut)\b[^\n]*%\}/m.test(text);
}
