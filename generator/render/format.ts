import type { GeneratedFile } from "../emit/files.js";

/**
 * Formats generated code with prettier, pinned to an exact version and called with explicit options so that the
 * output does not depend on any prettier config around the output folder. Loaded lazily: runs that emit no code
 * (lint) do not pay for it.
 */
const OPTIONS = {
  printWidth: 120,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  quoteProps: "as-needed",
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
  proseWrap: "preserve",
} as const;

function parserFor(path: string): string | null {
  if (path.endsWith(".ts")) return "typescript";
  if (path.endsWith(".js") || path.endsWith(".mjs")) return "babel";
  return null;
}

export async function formatFiles(files: GeneratedFile[]): Promise<GeneratedFile[]> {
  const prettier = await import("prettier");
  return Promise.all(
    files.map(async (f) => {
      const parser = parserFor(f.path);
      if (!parser) return f;
      return { path: f.path, contents: await prettier.format(f.contents, { ...OPTIONS, parser }) };
    }),
  );
}
