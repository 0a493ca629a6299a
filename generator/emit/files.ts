/** A generated file: a path relative to the output folder, with `/` separators, and its text. */
export interface GeneratedFile {
  path: string;
  contents: string;
  /** Created only when absent; the user's copy is kept on later runs (handler skeletons). */
  userOwned?: boolean;
  /**
   * For a user-owned file: the user's bytes this contents was merged from (the skeleton gaining stubs). The file is
   * replaced only while the disk still holds exactly those bytes.
   */
  mergedFrom?: string;
  /** Printed in its final layout, or data: the formatter leaves it alone. */
  raw?: boolean;
  /**
   * The template it was rendered from. A built-in template prints its final layout; what a template the user
   * replaced renders goes through the formatter (`GenerateOptions.customTemplates`).
   */
  template?: string;
}

export type { PackageMetadata } from "../options.js";
import type { PackageMetadata } from "../options.js";

const PACKAGE_JSON_PATHS = new Set(["types/package.json", "client/package.json", "server/package.json"]);

/** The three packages' `package.json` with the team's metadata after `description`, in the order the config gives. */
export function withPackageMetadata(file: GeneratedFile, metadata: PackageMetadata | undefined): GeneratedFile {
  if (!metadata || Object.keys(metadata).length === 0 || !PACKAGE_JSON_PATHS.has(file.path)) return file;
  const pkg = JSON.parse(file.contents) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(pkg)) {
    if (Object.hasOwn(metadata, k)) continue;
    out[k] = v;
    if (k === "description") Object.assign(out, metadata);
  }
  return { ...file, contents: `${JSON.stringify(out, null, 2)}\n` };
}

/** JSON as every generated JSON file is written: two spaces, `\n` line ends, a final newline. */
export function jsonFile(path: string, value: unknown): GeneratedFile {
  return { path, contents: `${JSON.stringify(value, null, 2)}\n` };
}

/**
 * The Redis stores' client library (D26): an optional peer dependency of the server and client packages, never a
 * dependency of the generator. The stores need only `eval`, which ioredis has had since its first major versions.
 */
export const REDIS_PEER = {
  peerDependencies: { ioredis: ">=5.0.0" },
  peerDependenciesMeta: { ioredis: { optional: true } },
} as const;

/**
 * `package.json` of a generated package: the header first (npm keeps `//` keys), an ES module whose `index.js` and
 * `index.d.ts` are its only entry, free of side effects. `extra` adds the package's own members.
 */
export function packageJsonFile(
  dir: string,
  pkg: { header: string; name: string; version: string; description: string },
  extra: Record<string, unknown> = {},
): GeneratedFile {
  return jsonFile(`${dir}/package.json`, {
    "//": pkg.header,
    name: pkg.name,
    version: pkg.version,
    description: pkg.description,
    type: "module",
    main: "./index.js",
    types: "./index.d.ts",
    exports: { ".": { types: "./index.d.ts", default: "./index.js" } },
    ...extra,
    sideEffects: false,
  });
}
