import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { builtInTemplatesDir } from "./templates.js";

/**
 * The compiled runtimes, `dist/shipped-runtime/**.js|.d.ts` (runtime/tsconfig.json), by path below it
 * (`client/index.js`), and `source/client/shape.ts`, the client's shape declarations as written.
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
  // The client's shape declarations are shipped as their source is written (emit/client/index.ts), not as tsc
  // prints them: the file itself, from the package (`files` in package.json).
  out["source/client/shape.ts"] = readFileSync(join(dirname(builtInTemplatesDir()), "runtime", "client", "shape.ts"), "utf8");
  return out;
}
