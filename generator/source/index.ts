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
  /** What earlier runs read, for a front end that can skip unchanged files (the reference's pages). */
  cache?: FragmentCache;
}

/**
 * A front end's readings of earlier runs (issue 27 item 2, issue 28): entries in, the entries of this run out, so
 * that the core stays pure and the caller (the CLI) keeps them on disk. A key is a hash of everything its entry was
 * read from, `salt` included, so a changed input or generator never meets an old entry; the output of a run is the
 * same bytes with and without a cache.
 */
export interface FragmentCache {
  /** Names the generator that wrote the entries (the CLI: a hash of its own code); part of every key. */
  salt: string;
  /** Entries of earlier runs, by key: plain data (what V8 serializes). */
  entries: ReadonlyMap<string, unknown>;
  /** This run's entries, used or read anew: what the caller keeps (the others are stale). */
  next: Map<string, unknown>;
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
  // Outside fenced code: a spec that quotes a YFM page in a fence is still the spec.
  let fence: string | null = null;
  let opens = false;
  let closes = false;
  for (const line of text.split("\n")) {
    const mark = /^[ \t]*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (mark && mark[0] === fence[0] && mark.length >= fence.length) fence = null;
      continue;
    }
    if (mark) {
      fence = mark;
      continue;
    }
    if (/^[ \t]*\{%[ \t]*(?:note|include|list|cut)\b[^\n]*%\}/.test(line)) return true;
    if (/^[ \t]*#\|[ \t]*$/.test(line)) opens = true;
    else if (/^[ \t]*\|#[ \t]*$/.test(line)) closes = true;
    if (opens && closes) return true;
  }
  return false;
}
