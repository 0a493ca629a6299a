import type { RootContent } from "mdast";
import type { Field, Method, Model } from "../../generator/model/types.js";
import { parseMarkdown, sectionize, specFile, listItemText, textOf, type Section, type SpecFile, type Text } from "../../generator/parse/markdown.js";
import { clauses, collapse, sentences } from "../../generator/read/inline.js";
import { type Style, printParams, printClause, scopeSentence } from "./print.js";

/**
 * Rewrites the parameters of every method of a spec into another surface, keeping every other sentence where it
 * was: the metamorphic test's transformation. The reader's own model says where each parameter was written (its
 * `source`); the sentences and rows that hold parameters are taken out and the parameters printed anew in `style`.
 * Sentences that must keep their parameters in place (a `Parameters ... order must be kept` sentence, `Samples also
 * pass`, a numbered list of call forms) stay as they are.
 */

function offsetOf(file: SpecFile, line: number, column: number): number {
  return (file.lineStarts[line - 1] ?? 0) + column - 1;
}

function sourcesOf(fields: Field[], out: number[], file: SpecFile, model: Model): void {
  for (const f of fields) {
    out.push(offsetOf(file, f.source.line, f.source.column));
    const t = f.type.kind === "ref" ? model.resources.find((r) => r.name === (f.type as { resource: string }).resource)?.type : f.type;
    if (t?.kind === "object") sourcesOf(t.members, out, file, model);
  }
}

function endpointAreas(root: Section): Section[] {
  const out: Section[] = [];
  const walk = (s: Section, inEndpoints: boolean) => {
    if (inEndpoints && s.depth === 3) out.push(s);
    for (const c of s.children) walk(c, inEndpoints || (s.depth === 2 && /^endpoints/i.test(s.title)));
  };
  walk(root, false);
  return out;
}

const HEADER = /^\*\*[^*]+\*\*(?:\s*\((?:[^()`]|`[^`]*`)*\))?\s*[.:]?/;

export function rewriteSpec(text: string, model: Model, style: Style): string {
  const file = specFile("spec.md", text);
  const root = sectionize(file, parseMarkdown(file).root);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const area of endpointAreas(root)) {
    let current: { method: Method; blocks: RootContent[] } | null = null;
    const regions: Array<{ method: Method; blocks: RootContent[] }> = [];
    for (const block of area.blocks) {
      const t = textOf(file, block);
      if (block.type === "paragraph" && t.text.startsWith("**")) {
        const line = (block.position?.start.line ?? 0);
        const method = model.methods.find((m) => m.source.line === line);
        if (method) {
          current = { method, blocks: [block] };
          regions.push(current);
          continue;
        }
      }
      current?.blocks.push(block);
    }
    for (const r of regions) edits.push(rewriteMethod(file, r.method, r.blocks, model, style));
  }
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

function rewriteMethod(file: SpecFile, m: Method, blocks: RootContent[], model: Model, style: Style): { start: number; end: number; text: string } {
  const first = blocks[0];
  const last = blocks[blocks.length - 1];
  const start = first?.position?.start.offset ?? 0;
  const end = last?.position?.end.offset ?? start;
  const offsets: number[] = [];
  sourcesOf(m.params, offsets, file, model);
  const holdsParam = (t: Text) => offsets.some((o) => o >= t.start && o < t.start + t.text.length);
  const descriptions = m.params.map((p) => collapse(p.description)).filter(Boolean);
  const continues = (s: string) => descriptions.some((d) => d.includes(collapse(s)));
  const pinned = new Set<string>();
  const pin = (t: Text) => {
    for (const p of m.params) if (offsets.length && holdsSource(file, p, t)) pinned.add(p.name);
  };
  const forms = m.constraints.find((c) => c.kind === "call-forms");
  if (forms && forms.kind === "call-forms") for (const f of forms.forms) for (const n of f) pinned.add(n);

  /** The sentences of a text that stay: not a parameter's, not the scope, not a continuation of a description. */
  const keep = (t: Text, isHeader: boolean): string[] => {
    const kept: string[] = [];
    for (const [i, s] of sentences(t).entries()) {
      let x = s;
      if (isHeader && i === 0) {
        const h = HEADER.exec(s.text);
        if (h) x = { text: s.text.slice(h[0].length), start: s.start + h[0].length };
      }
      const c = collapse(x.text);
      if (!c) continue;
      if (/^(Parameters `|Samples also pass `)/.test(c)) {
        pin(x);
        kept.push(c);
        continue;
      }
      if (/^Scopes?\b/.test(c)) continue;
      if (holdsParam(x)) {
        // "`USER_PHONE_INNER` string, inner number; at least one of `USER_ID`, `USER_PHONE_INNER` is required":
        // the constraint is no parameter's words and stays.
        for (const clause of clauses(x)) {
          if (/\bat least one of\b/i.test(clause.text) && !holdsParam(clause)) kept.push(collapse(clause.text).replace(/^at/, "At"));
        }
        continue;
      }
      if (continues(c) && !/\bat least one of\b/i.test(c)) continue;
      kept.push(c);
    }
    return kept.map((s) => (/[.:]$/.test(s) ? s : `${s}.`));
  };

  const headerText = first ? textOf(file, first) : { text: "", start: 0 };
  const head = HEADER.exec(headerText.text)?.[0].trim() ?? `**${m.name}**.`;
  const restOfHeader = keep(headerText, true);
  const others: string[] = [];
  for (const block of blocks.slice(1)) {
    const t = textOf(file, block);
    if (block.type === "table") {
      if (!holdsParam(t)) others.push("", file.text.slice(block.position?.start.offset ?? 0, block.position?.end.offset ?? 0), "");
      continue;
    }
    if (block.type === "list") {
      if (forms && block.ordered && holdsParam(t)) continue;
      const items: string[] = [];
      for (const item of block.children) {
        const it = listItemText(file, item);
        if (!holdsParam(it) && !continues(collapse(it.text))) {
          items.push(file.text.slice(item.position?.start.offset ?? 0, item.position?.end.offset ?? 0));
          continue;
        }
        const k = keep(it, false);
        if (k.length > 0) items.push(`- ${k.join(" ")}`);
      }
      if (items.length > 0) others.push("", ...items, "");
      continue;
    }
    if (block.type === "paragraph" && holdsParam(t)) {
      const k = keep(t, false);
      if (k.length > 0) others.push("", k.join(" "), "");
      continue;
    }
    others.push("", file.text.slice(block.position?.start.offset ?? 0, block.position?.end.offset ?? 0), "");
  }
  const printed = printParams(
    m.params.filter((p) => !pinned.has(p.name)),
    style,
    model,
  );
  // The method's other sentences stay in its first paragraph: a "not shown" paragraph of its own would be the area's.
  const lines = [[head, scopeSentence(m, style), ...restOfHeader].filter(Boolean).join(" "), ...printed];
  if (forms && forms.kind === "call-forms") {
    const byName = new Map(m.params.map((p) => [p.name, p]));
    lines.push("");
    for (const [i, f] of forms.forms.entries()) {
      const clauses = f.map((n) => byName.get(n)).filter((p): p is Field => !!p).map((p) => printClause({ ...p, required: true }, style, model, 1).clause);
      lines.push(`${i + 1}. ${clauses.join(", ")}.`);
    }
    lines.push("");
  }
  lines.push(...others);
  return { start, end, text: lines.join("\n").replace(/\n{3,}/g, "\n\n").trim() };
}

function holdsSource(file: SpecFile, p: Field, t: Text): boolean {
  const o = offsetOf(file, p.source.line, p.source.column);
  return o >= t.start && o < t.start + t.text.length;
}

export const RESOURCE_HEADERS = [
  { name: "Field", type: "Type", meaning: "Meaning" },
  { name: "Name", type: "Data type", meaning: "Description" },
  { name: "Member", type: "Value type", meaning: "Notes" },
  { name: "Property", type: "Type", meaning: "Meaning / allowed values" },
  { name: "Attribute", type: "Type", meaning: "Details" },
] as const;

/**
 * Rewrites the field tables of the resource sections: other header synonyms, and the Meaning column before the Type
 * column when `swap` is set. The cells stay as written.
 */
export function rewriteResourceTables(text: string, headers: number, swap: boolean): string {
  const file = specFile("spec.md", text);
  const root = sectionize(file, parseMarkdown(file).root);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const h = RESOURCE_HEADERS[headers % RESOURCE_HEADERS.length] ?? RESOURCE_HEADERS[0];
  const walk = (s: Section, inResources: boolean) => {
    if (inResources && s.depth === 3 && !/^(response envelope|other resources)/i.test(s.title)) {
      for (const block of s.blocks) {
        if (block.type !== "table") continue;
        const rows = block.children.map((row) => row.children.map((c) => file.text.slice(c.position?.start.offset ?? 0, c.position?.end.offset ?? 0).replace(/^\|/, "").replace(/\|$/, "").trim()));
        const header = rows[0] ?? [];
        if (!/^(field|member)$/i.test(header[0] ?? "") || !/^type$/i.test(header[1] ?? "")) continue;
        const width = header.length;
        const named = [h.name, h.type, ...(width > 2 ? [h.meaning] : [])];
        const order = swap && width > 2 ? [0, 2, 1] : [...Array(width).keys()];
        const line = (cells: string[]) => `| ${order.map((i) => cells[i] ?? "").join(" | ")} |`;
        const out = [line(named), `|${order.map(() => "---").join("|")}|`, ...rows.slice(1).map((r) => line(r))];
        edits.push({ start: block.position?.start.offset ?? 0, end: block.position?.end.offset ?? 0, text: out.join("\n") });
      }
    }
    for (const c of s.children) walk(c, inResources || (s.depth === 2 && /^resources/i.test(s.title)));
  };
  walk(root, false);
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
