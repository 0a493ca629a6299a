import { blockCommentText } from "../util/comment.js";
import { Node, type ObjectLiteralExpression, Project, type SourceFile, SyntaxKind, ts } from "ts-morph";

/**
 * Brings the user-owned handler skeleton up to the spec (issue 7) by editing the user's file along its syntax tree:
 * a stub for each method the spec gained, in spec order among the stubs, and a `@deprecated` line on each handler of
 * a method the spec dropped. Every other byte stays: the edits are insertions at offsets the tree gives, spliced
 * into the user's text, never a reprint of the file (a printer would reflow the user's formatting and comments).
 *
 * Pure: texts in, text or a reason out. ts-morph is loaded by the caller only when the skeleton needs a change.
 */

export interface SkeletonUpdate {
  /** Methods the spec has and the skeleton lacks, by handlers object (`legacy`, `v3`). */
  add: { legacy: string[]; v3: string[] };
  /** Handlers of methods the spec no longer has, with the note to put on each. */
  deprecate: { legacy: Array<{ name: string; note: string }>; v3: Array<{ name: string; note: string }> };
}

export type MergeResult =
  | { kind: "merged"; text: string; added: string[]; deprecated: string[] }
  | { kind: "unchanged" }
  | { kind: "failed"; line: number; column: number; reason: string };

const OBJECTS = ["legacy", "v3"] as const;

function parse(project: Project, path: string, text: string): SourceFile {
  return project.createSourceFile(path, text, { overwrite: true, scriptKind: ts.ScriptKind.TS });
}

/** The handlers object of `export const <name>` (through `satisfies`, `as`, parentheses), or null. */
function handlersObject(file: SourceFile, name: string): ObjectLiteralExpression | null {
  const decl = file.getVariableDeclaration(name);
  let init: Node | undefined = decl?.getInitializer();
  while (init && (Node.isSatisfiesExpression(init) || Node.isAsExpression(init) || Node.isParenthesizedExpression(init))) init = init.getExpression();
  return init && Node.isObjectLiteralExpression(init) ? init : null;
}

/** A property's key as a method name: `"tasks.task.get"` or `profile`. */
function keyOf(p: Node): string | null {
  if (Node.isPropertyAssignment(p) || Node.isMethodDeclaration(p) || Node.isShorthandPropertyAssignment(p)) {
    const n = p.getNameNode();
    return Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n) ? n.getLiteralText() : n.getText();
  }
  return null;
}

/** Each entry of a fresh skeleton's handlers object with its leading comments, as the template renders it. */
function freshEntries(fresh: ObjectLiteralExpression): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of fresh.getProperties()) {
    const key = keyOf(p);
    if (!key) continue;
    const full = p.getFullText().replace(/^\s*\n/, "");
    out.set(key, `${full.replace(/\s+$/, "")},`);
  }
  return out;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

function lineEnd(text: string, offset: number): number {
  const i = text.indexOf("\n", offset);
  return i < 0 ? text.length : i;
}

/** Re-indents a stub from the template's two spaces to the user's indent. */
function reindent(stub: string, indent: string): string {
  return indent === "  " ? stub : stub.replace(/^ {2}/gm, indent);
}

function position(file: SourceFile, offset: number): { line: number; column: number } {
  const { line, column } = file.getLineAndColumnAtPos(offset);
  return { line, column };
}

export function mergeSkeleton(userText: string, freshText: string, update: SkeletonUpdate): MergeResult {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: false } });
  const file = parse(project, "/user/handlers.ts", userText);
  const syntax = (file.compilerNode as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  const first = syntax[0];
  if (first) {
    const at = position(file, first.start ?? 0);
    return { kind: "failed", ...at, reason: `it does not parse: ${ts.flattenDiagnosticMessageText(first.messageText, " ")}` };
  }
  const fresh = parse(project, "/fresh/handlers.ts", freshText);
  // Offsets into the user's text, applied from the end so that earlier offsets stay valid.
  const edits: Array<{ at: number; text: string }> = [];
  const added: string[] = [];
  const deprecated: string[] = [];
  for (const name of OBJECTS) {
    const wanted = update.add[name];
    const gone = update.deprecate[name];
    if (wanted.length === 0 && gone.length === 0) continue;
    const object = handlersObject(file, name);
    if (!object) {
      const decl = file.getVariableDeclaration(name);
      const at = position(file, decl?.getStart() ?? 0);
      return { kind: "failed", ...at, reason: decl ? `\`${name}\` is not an object literal of handlers` : `it has no \`export const ${name}\` handlers object` };
    }
    const props = object.getProperties();
    const byKey = new Map<string, Node>();
    for (const p of props) {
      const k = keyOf(p);
      // A spread (`...taskHandlers`) or a computed key hides which methods the object has: a stub could shadow a
      // handler the user wrote elsewhere. Nothing is written; the user adds the stubs.
      if (k === null || (Node.isPropertyAssignment(p) && Node.isComputedPropertyName(p.getNameNode()))) {
        const at = position(file, p.getStart());
        return { kind: "failed", ...at, reason: `\`${name}\` has a spread or a computed key, so the methods it handles cannot be told` };
      }
      byKey.set(k, p);
    }
    const firstProp = props[0];
    const nl = userText.includes("\r\n") ? "\r\n" : "\n";
    const indent = firstProp ? /^[ \t]*/.exec(userText.slice(lineStart(userText, firstProp.getStart())))?.[0] || "  " : "  ";
    const stubs = freshEntries(handlersObject(fresh, name) ?? object);
    // The spec's order, as the fresh skeleton has it.
    const order = [...stubs.keys()];
    for (const method of wanted) {
      const stub = stubs.get(method);
      if (!stub || byKey.has(method)) continue;
      const text = reindent(stub, indent).replace(/\n/g, nl);
      // Spec order among the stubs: after the nearest earlier method the user's object has.
      const index = order.indexOf(method);
      const before = order.slice(0, Math.max(index, 0)).reverse().find((m) => byKey.has(m));
      const anchor = before ? byKey.get(before) : undefined;
      if (anchor) {
        const end = anchor.getEnd();
        const next = anchor.getNextSiblingIfKind(SyntaxKind.CommaToken);
        const comma = next ? next.getEnd() : end;
        const rest = userText.slice(comma, lineEnd(userText, comma));
        // After a trailing comment of the anchor's line, so that the comment stays with its entry.
        const at = /^\s*(\/\/[^\n]*)?$/.test(rest) ? lineEnd(userText, comma) : comma;
        // The last entry may lack its comma: one goes right after it, and the stub after the rest of its line.
        if (!next) edits.push({ at: end, text: "," });
        edits.push({ at: at - (userText[at - 1] === "\r" ? 1 : 0), text: `${nl}${text}` });
      } else {
        const open = object.getStart() + 1;
        const rest = userText.slice(open, lineEnd(userText, open));
        if (props.length === 0 && /^\s*\}/.test(userText.slice(open))) edits.push({ at: open, text: `${nl}${text}${nl}` });
        else {
          // After the rest of the `{` line (a comment there stays on it).
          const at = /^\s*(\/\/[^\n]*)?$/.test(rest) ? lineEnd(userText, open) : open;
          edits.push({ at: at - (userText[at - 1] === "\r" ? 1 : 0), text: `${nl}${text}` });
        }
      }
      added.push(method);
    }
    for (const { name: method, note } of gone) {
      const p = byKey.get(method);
      if (!p) continue;
      // Already marked: a comment before the entry carries the tag (TypeScript reads every JSDoc block before it).
      if (p.getLeadingCommentRanges().some((c) => /^\/\*\*[\s\S]*@deprecated\b/.test(c.getText()))) continue;
      const start = lineStart(userText, p.getStart());
      const lead = userText.slice(start, p.getStart());
      const line = `/** @deprecated ${blockCommentText(note, { oneLine: true })} */`;
      // On a line of its own above the entry (after the entry's own comments, which TypeScript reads as well), or
      // before it where the line holds other code too.
      edits.push(/^[ \t]*$/.test(lead) ? { at: start, text: `${lead}${line}${nl}` } : { at: p.getStart(), text: `${line} ` });
      deprecated.push(method);
    }
  }
  if (edits.length === 0) return { kind: "unchanged" };
  // Insertions at one offset keep their order (spec order).
  const sorted = edits.map((e, i) => ({ ...e, i })).sort((a, b) => b.at - a.at || b.i - a.i);
  let text = userText;
  for (const e of sorted) text = text.slice(0, e.at) + e.text + text.slice(e.at);
  return { kind: "merged", text, added, deprecated };
}
