import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { ts } from "ts-morph";
import type { ApiParts, RuntimeModulesApi } from "../diff/runtime-api.js";

/**
 * The runtime modules' API (diff/runtime-api.ts), read from the compiled runtime's declarations when the generator is
 * built (`npm run build` runs this file), into `dist/shipped-runtime/api.json`: each module's exports with their
 * parts, re-exports followed. Run at build time so that no generation loads the TypeScript compiler.
 */

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** The modules' exports, from the declaration texts by path below the runtime (`server/index.d.ts`). */
export function runtimeModulesApi(declarations: Readonly<Record<string, string>>): RuntimeModulesApi {
  const printer = ts.createPrinter({ removeComments: true });
  const parsed = new Map<string, ts.SourceFile>();
  for (const [path, text] of Object.entries(declarations)) if (path.endsWith(".d.ts")) parsed.set(path, ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, false));
  const print = (node: ts.Node, file: ts.SourceFile) => printer.printNode(ts.EmitHint.Unspecified, node, file).replace(/\s+/g, " ").trim();
  const done = new Map<string, Record<string, ApiParts>>();
  const resolve = (from: string, specifier: string) => posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\.js$/, ".d.ts");

  const exportsOf = (path: string, seen: ReadonlySet<string>): Record<string, ApiParts> => {
    const known = done.get(path);
    if (known) return known;
    const file = parsed.get(path);
    if (!file || seen.has(path)) return {};
    const inner = new Set([...seen, path]);
    // Every declaration of the module by name (declarations merge: overloads, an interface declared twice).
    const local = new Map<string, Set<string>>();
    const exported = new Set<string>();
    const out: Record<string, Set<string>> = {};
    const add = (name: string, parts: Iterable<string>) => {
      // `at:` names where the declaration is (not hashed): a package tells its own exports from other types of the
      // same name by it (diff/runtime-api.ts resolveRefs).
      const set = local.get(name) ?? new Set<string>([`at:${path}#${name}`]);
      for (const p of parts) set.add(p);
      local.set(name, set);
    };
    // The module a name of this file comes from: imported (`import type { KeyRule } from "./data.js"`) or its own.
    const imported = new Map<string, string>();
    for (const s of file.statements) {
      if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
      const bindings = s.importClause?.namedBindings;
      // A package's types (`collab-platform-api-types/common`) are the model's, versioned by the model's diff.
      if (!s.moduleSpecifier.text.startsWith(".")) continue;
      if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) imported.set(e.name.text, `${resolve(path, s.moduleSpecifier.text)}#${(e.propertyName ?? e.name).text}`);
    }
    // The types a declaration names (`ClientData`'s `KeyRule`), as `ref:module#name` parts: a package resolves them
    // (diff/runtime-api.ts), so that narrowing a type no entry exports still changes the exports that name it.
    const refsOf = (node: ts.Node): string[] => {
      const out = new Set<string>();
      const visit = (n: ts.Node): void => {
        const named = ts.isTypeReferenceNode(n) ? n.typeName : ts.isExpressionWithTypeArguments(n) ? n.expression : ts.isTypeQueryNode(n) ? n.exprName : null;
        if (named) {
          let head: ts.Node = named;
          while (ts.isQualifiedName(head)) head = head.left;
          while (ts.isPropertyAccessExpression(head)) head = head.expression;
          if (ts.isIdentifier(head)) {
            const from = imported.get(head.text);
            if (from) out.add(`ref:${from}`);
            else if (declared.has(head.text)) out.add(`ref:${path}#${head.text}`);
          }
        }
        ts.forEachChild(n, visit);
      };
      visit(node);
      return [...out];
    };
    const declared = new Set<string>();
    for (const s of file.statements) {
      const name = (s as { name?: ts.Node }).name;
      if (name && ts.isIdentifier(name)) declared.add(name.text);
      if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) declared.add(d.name.text);
    }
    const isExported = (s: ts.Statement) => ts.canHaveModifiers(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const membersOf = (members: ts.NodeArray<ts.TypeElement | ts.ClassElement>): string[] =>
      members
        .filter((m) => !(ts.canHaveModifiers(m) && (ts.getModifiers(m) ?? []).some((x) => x.kind === ts.SyntaxKind.PrivateKeyword)))
        .map((m) => `${(m as { questionToken?: ts.Node }).questionToken ? "m?" : "m"}:${hash(print(m, file))}`);
    for (const s of file.statements) {
      if (ts.isInterfaceDeclaration(s)) {
        add(s.name.text, [`h:${hash(`${s.typeParameters?.map((t) => print(t, file)).join(",") ?? ""}|${s.heritageClauses?.map((h) => print(h, file)).join(",") ?? ""}`)}`, ...membersOf(s.members), ...refsOf(s)]);
      } else if (ts.isClassDeclaration(s) && s.name) {
        // A class's members are read, not implemented: one it gains is an addition, whatever its optionality.
        const members = membersOf(s.members).map((p) => p.replace(/^m:/, "m?:"));
        add(s.name.text, [`h:${hash(`${s.typeParameters?.map((t) => print(t, file)).join(",") ?? ""}|${s.heritageClauses?.map((h) => print(h, file)).join(",") ?? ""}`)}`, ...members, ...refsOf(s)]);
      } else if (ts.isFunctionDeclaration(s) && s.name) {
        // A signature without its trailing optional parameters, and each of those a part of its own: a parameter
        // added as optional is an addition (D9), one removed or a changed return is not.
        let kept = s.parameters.length;
        while (kept > 0 && (s.parameters[kept - 1]?.questionToken || s.parameters[kept - 1]?.initializer)) kept--;
        const core = ts.factory.updateFunctionDeclaration(s, s.modifiers, s.asteriskToken, s.name, s.typeParameters, s.parameters.slice(0, kept), s.type, s.body);
        const signature = print(core, file).replace(/^export\s+/, "");
        const optional = s.parameters.slice(kept).map((q, i) => `p?:${hash(`${signature}|${kept + i}|${print(q, file)}`)}`);
        add(s.name.text, [`s:${hash(signature)}`, ...optional, ...refsOf(s)]);
      } else if (ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s) || ts.isModuleDeclaration(s)) {
        if (ts.isIdentifier(s.name)) add(s.name.text, [`d:${hash(print(s, file).replace(/^export\s+/, ""))}`, ...refsOf(s)]);
      } else if (ts.isVariableStatement(s)) {
        for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d.name.text, [`d:${hash(print(d, file))}`, ...refsOf(d)]);
      }
      if (!ts.isExportDeclaration(s)) {
        if (isExported(s)) {
          const name = (s as { name?: ts.Node }).name;
          if (name && ts.isIdentifier(name)) exported.add(name.text);
          if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) exported.add(d.name.text);
        }
        continue;
      }
      const target = s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) ? resolve(path, s.moduleSpecifier.text) : null;
      const theirs = target ? exportsOf(target, inner) : null;
      if (!s.exportClause) {
        // `export * from "./x.js"`: all of x's exports but a default.
        for (const [name, parts] of Object.entries(theirs ?? {})) if (name !== "default" && !name.startsWith("@")) out[name] = new Set(parts);
      } else if (ts.isNamedExports(s.exportClause)) {
        for (const e of s.exportClause.elements) {
          const from = (e.propertyName ?? e.name).text;
          const parts = theirs ? theirs[from] : undefined;
          if (theirs) out[e.name.text] = new Set(parts ?? [`d:${hash(`unresolved ${target} ${from}`)}`]);
          else exported.add(`${from}\u0000${e.name.text}`);
        }
      }
    }
    for (const entry of exported) {
      const [from, as] = entry.includes("\u0000") ? (entry.split("\u0000") as [string, string]) : [entry, entry];
      const parts = local.get(from);
      if (parts) out[as] = new Set([...(out[as] ?? []), ...parts]);
    }
    // The module's own declarations that it does not export, under `@name` (no export is so named): the types an
    // export names (`ref:` parts) are found there too.
    for (const [name, parts] of local) if (!out[name]) out[`@${name}`] = new Set([...parts]);
    const result = Object.fromEntries(
      Object.entries(out)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, parts]) => [name, [...parts].sort()]),
    );
    done.set(path, result);
    return result;
  };
  const all: RuntimeModulesApi = {};
  for (const path of [...parsed.keys()].sort()) all[path] = exportsOf(path, new Set());
  return all;
}

/** `node dist/generator/cli/runtime-api-build.js`: writes `dist/shipped-runtime/api.json` beside the compiled runtime. */
function main(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "shipped-runtime");
  const declarations: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith(".d.ts")) declarations[relative(root, full).split(sep).join("/")] = readFileSync(full, "utf8");
    }
  };
  walk(root);
  writeFileSync(join(root, "api.json"), `${JSON.stringify(runtimeModulesApi(declarations), null, 2)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
