import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { builtInTemplatesDir } from "./templates.js";

/**
 * The compiled runtimes, `dist/shipped-runtime/**.js|.d.ts` (runtime/tsconfig.json), by path below it
 * (`client/index.js`), and the client's shape declarations as written in runtime/client/shape.ts (`shapeEntries`).
 */
export function loadRuntime(): Record<string, string> {
  const root = join(dirname(builtInTemplatesDir()), "dist", "shipped-runtime");
  if (!existsSync(root)) throw new Error(`the compiled runtimes are missing at ${root}; run npm run build`);
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith(".js") || e.name.endsWith(".d.ts")) out[relative(root, full).split(sep).join("/")] = readFileSync(full, "utf8");
    }
  };
  walk(root);
  // The runtime modules' API the build read from these declarations (cli/runtime-api-build.ts, decisions.md D9).
  const api = join(root, "api.json");
  if (existsSync(api)) out["api.json"] = readFileSync(api, "utf8");
  // The client's shape declarations are shipped as their source is written (emit/client/index.ts), not as tsc
  // prints them: the file itself, from the package (`files` in package.json).
  return { ...out, ...shapeEntries(readFileSync(join(dirname(builtInTemplatesDir()), "runtime", "client", "shape.ts"), "utf8")) };
}

/** The line of runtime/client/shape.ts after which its text is shipped. */
const SHAPE_MARKER = "// ---- shipped from here on ----";

/**
 * runtime/client/shape.ts as the client emitter takes it, read where the file is read: `source/client/shape.body`,
 * the text after the marker line, and `source/client/shape.imports.json`, the names imported from each module above
 * it (the emitter writes them again for the configured package names). A CRLF checkout reads the same.
 */
export function shapeEntries(source: string): Record<string, string> {
  const text = source.replace(/\r\n?/g, "\n");
  const at = text.indexOf(`${SHAPE_MARKER}\n`);
  if (at < 0) throw new Error("runtime/client/shape.ts has no marker line");
  const imports: Record<string, string[]> = {};
  for (const m of text.slice(0, at).matchAll(/^import type \{([^}]*)\} from "([^"]+)";$/gm)) {
    imports[m[2] as string] = (m[1] as string).split(",").map((n) => n.trim()).filter(Boolean);
  }
  return { "source/client/shape.body": text.slice(at + SHAPE_MARKER.length + 1).replace(/\n$/, ""), "source/client/shape.imports.json": JSON.stringify(imports) };
}
