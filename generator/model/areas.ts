/**
 * The key of a method's area: the first segment of its name, lower case, as a file and subpath name (D14). A model
 * question: the area split of the packages and the check that every area can be a file name both ask it.
 */
export function areaKey(name: string): string {
  const first = name.split(".")[0] ?? "";
  const key = first.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "");
  // `common` is the types package's entry of the shared declarations, `redis` the client's shared throttle store.
  return key === "common" || key === "redis" ? `${key}-methods` : key || "other";
}

/** The longest file name the output may hold, in bytes (ext4, APFS and NTFS take 255). */
export const MAX_FILE_NAME_BYTES = 255;

/** The longest name an area's files add to its key: `<key>.d.ts` in the types package, `<key>/index.d.ts` in the client. */
export const AREA_FILE_SUFFIX = ".d.ts";
