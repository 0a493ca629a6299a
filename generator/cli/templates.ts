import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The generator's own `templates/` folder (beside `generator/` in the package, in source and in dist alike). */
export function builtInTemplatesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, "templates");
    if (existsSync(join(candidate, "client"))) return candidate;
    dir = dirname(dir);
  }
  throw new Error("the generator's templates folder was not found");
}

/** The config's JSON Schema, shipped beside the templates (`collab-rest-codegen/config.schema.json`). */
export const SCHEMA_FILE = "config.schema.json";

function readAll(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      // A runtime/ folder (where versions before decisions.md D27 kept the runtime's TypeScript, so an override folder
      // copied from them may have one) is no template; nor is templates/config.schema.json, the config's schema
      // shipped for editors.
      if (e.isDirectory()) {
        if (!(d === root && e.name === "runtime")) walk(full);
      } else if (e.isFile() && !(d === root && e.name === SCHEMA_FILE)) out[relative(root, full).split(sep).join("/")] = readFileSync(full, "utf8");
    }
  };
  walk(root);
  return out;
}

/** The built-in templates, with the files of `override` (`--templates DIR`) in place of those of the same path. */
export function loadTemplates(override: string | null): Record<string, string> {
  return loadTemplateSet(override).templates;
}

export interface TemplateSet {
  templates: Record<string, string>;
  /** The file each template was read from, for errors at the template's own line and column. */
  origin: Record<string, string>;
  /** Files of the override folder whose path names no built-in template: they are not used, and a warning says so. */
  unknown: string[];
  /** The built-in templates the override folder replaces: the code they render is formatted (GenerateOptions). */
  custom: string[];
}

export function loadTemplateSet(override: string | null): TemplateSet {
  const builtInDir = builtInTemplatesDir();
  const builtIn = readAll(builtInDir);
  const origin = Object.fromEntries(Object.keys(builtIn).map((k) => [k, join(builtInDir, ...k.split("/"))]));
  const mine = override ? readAll(override) : {};
  const unknown: string[] = [];
  for (const k of Object.keys(mine)) {
    if (!Object.hasOwn(builtIn, k)) unknown.push(k);
    else if (override) origin[k] = join(override, ...k.split("/"));
  }
  const templates = { ...builtIn };
  for (const [k, v] of Object.entries(mine)) if (Object.hasOwn(builtIn, k)) templates[k] = v;
  const custom = Object.keys(mine).filter((k) => Object.hasOwn(builtIn, k));
  return { templates, origin, unknown: unknown.sort(), custom: custom.sort() };
}
