/**
 * A page of a legacy list method: its records, and the two members the platform puts beside `result` so that a
 * caller can go on: `total` (how many records the filter matches) and `next` (the `start` of the next page, absent
 * on the last). The spec shows neither; the platform's documentation does (see the server README). A list handler
 * returns `page(records, { total, next })`, or `pageOf(all, params.start)` to cut a page out of every record; the
 * router answers `{ result, next, total, time }`, and leaves `next` and `total` out when the request asked for no
 * count (`start=-1`). Inside a batch they go to `result_next` and `result_total`.
 */

// A registered symbol: a handler that imports a second copy of the runtime still makes pages the router knows.
const PAGE: unique symbol = Symbol.for("collab-rest-codegen.page") as never;

export interface Page<T = unknown> {
  readonly [PAGE]: true;
  readonly items: readonly T[];
  readonly total?: number;
  readonly next?: number;
}

/** A page of `items`, with the total count and the next page's `start` where there is one. */
export function page<T>(items: readonly T[], more: { total?: number; next?: number } = {}): Page<T> {
  return { [PAGE]: true, items, ...(more.total === undefined ? {} : { total: more.total }), ...(more.next === undefined ? {} : { next: more.next }) };
}

/**
 * The page of `records` that starts at `start` (the request's `start`, a number or a numeric string; `-1` or none
 * is the first page), `size` records long (default 50, the platform's page size).
 */
export function pageOf<T>(records: readonly T[], start: unknown, size = 50): Page<T> {
  const from = Math.max(0, Math.trunc(startOf(start) || 0));
  const next = from + size;
  return page(records.slice(from, next), { total: records.length, ...(next < records.length ? { next } : {}) });
}

/** `start` as `Number` reads it, and 0 where `Number` throws (`{"toString": 1}`, where `start` has no type: a 500). */
function startOf(start: unknown): number {
  try {
    return Number(start);
  } catch {
    return 0;
  }
}

export function isPage(value: unknown): value is Page {
  return typeof value === "object" && value !== null && (value as { [PAGE]?: unknown })[PAGE] === true;
}

/** A request that asked for no count: `start=-1`, as the platform's cursor-style paging sends it. */
export function withoutCount(params: Record<string, unknown>): boolean {
  return params.start === -1 || params.start === "-1";
}
