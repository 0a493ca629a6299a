/**
 * Appends every item of `items` to `target`. A spread into `push` passes each item as an argument, and past about
 * 100,000 of them V8 throws `RangeError: Maximum call stack size exceeded` (issue 24: a spec of 130,000 table rows
 * or top-level blocks stopped the run). A loop has no such limit.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
