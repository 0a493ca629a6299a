import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { GENERATOR_NAME } from "../options.js";

/** The generator's own version, from the package.json above this module (source or dist). */
export function generatorVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === GENERATOR_NAME && pkg.version) return pkg.version;
    }
    dir = dirname(dir);
  }
  throw new Error("package.json of the generator not found");
}
