/**
 * The folders a folder input's reading skips, and so its watch and its reading at a git revision: hidden ones (`.git`)
 * and `node_modules` are not the reference's.
 */
export function skippedFolder(name: string): boolean {
  return name.startsWith(".") || name === "node_modules";
}
