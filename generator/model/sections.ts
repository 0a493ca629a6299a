/**
 * The anchor of the section that holds `line`: the last heading at or before it (GitHub's slug, as the model
 * records it), or null before the first heading. A model question: the types' `@see` and the OpenAPI documents'
 * `x-source` (decisions.md D29) both ask it, and neither carries a line.
 */
export function sectionAnchorAt(model: { sections: ReadonlyArray<{ anchor: string; source: { line: number } }> }, line: number): string | null {
  let anchor: string | null = null;
  for (const s of model.sections) {
    if (s.source.line > line) break;
    anchor = s.anchor;
  }
  return anchor;
}

/**
 * The public URL of a page of published documentation: its path below the input's folder (`root`), under `base`,
 * `.md` as `.html` (decisions.md D20); null for a file that is no page of its own (a fragment under `_includes/`,
 * published only inside the pages that include it: only `api-reference/` pages have URLs).
 */
export function publicUrl(pages: { base: string; root: string }, file: string): string | null {
  if (!/(^|\/)api-reference\//.test(file)) return null;
  const path = file.startsWith(pages.root) ? file.slice(pages.root.length) : file;
  return `${pages.base}${path.replace(/\.md$/, ".html").split("/").map(urlSegment).join("/")}`;
}

/**
 * A path segment as a URL writes it: percent-encoded, `*`, `'`, `(`, `)` and `!` too (encodeURIComponent keeps
 * them). A page's path is input: under a folder named `a*`, a JSDoc `@see` of its pages held a star then a slash,
 * which closed the comment.
 */
function urlSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Whether a position lies on a page of the platform's reference, in a model that holds it (D29): any file but the
 * spec's, once the model has public pages. Its `@see` is the page's URL, its `x-source` the page.
 */
export function onReferencePage(model: { publicPages?: unknown; specFile: string }, at: { file: string }): boolean {
  return Boolean(model.publicPages) && at.file !== model.specFile;
}

/**
 * Whether a fact of a node was read from the other input than the node, in a model of the spec and the reference
 * (D24, D29): a spec method's scopes or parameter type filled from a page. Such a fact names its own input.
 */
export function fromOtherInput(model: { publicPages?: unknown; specFile: string }, node: { file: string }, fact: { file: string } | undefined): fact is { file: string } {
  return fact !== undefined && onReferencePage(model, fact) !== onReferencePage(model, node);
}
