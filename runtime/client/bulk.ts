import type { ApiError } from "./errors.js";
import { toQuery } from "./query.js";
import type { AllOptions, BatchOptions, BatchOutcome, Bulk, PageOptions } from "./types.js";

/**
 * Paging and batches: loaded by the runtime on first use (a dynamic import), so that a program that only calls
 * methods does not carry them. It imports nothing of the runtime but types: what it needs comes in `rt`, so that a
 * bundler does not pull a shared chunk into the one-call program.
 */

export async function* paginate(rt: Bulk, method: string, params: Record<string, unknown> = {}, pageOptions: PageOptions = {}): AsyncGenerator<unknown> {
  const { send, data } = rt;
  const maxPages = pageOptions.maxPages ?? 100;
  let start = Number(params.start ?? 0);
  for (let page = 0; page < maxPages; page++) {
    const { result, next, total } = counted(await send(method, "legacy", { ...params, start }, pageOptions));
    const items = Array.isArray(result) ? result : [];
    for (const item of items) yield item;
    // The spec does not show the members that continue paging; the platform sends `next` where the next page
    // starts, and no `next` beside a `total` on the last page. A server that sends neither: a short page is the last.
    if (next === undefined && (total !== undefined || items.length < data.pageSize)) return;
    start = next ?? start + items.length;
  }
}

/**
 * Any number of commands, sent `maxCommands` (the documented 50) to a request, in order. A `$result[name]` reference
 * works within one request only (the platform resolves it there): one that reaches into another request is refused
 * before anything is sent. With `halt`, a failing command stops its request and the requests after it.
 */
export async function batch(rt: Bulk, commands: Record<string, readonly [string, unknown?]>, batchOptions: BatchOptions = {}): Promise<BatchOutcome> {
  const { send, data, webhook, appOnly, refuse, scrub } = rt;
  const names = Object.keys(commands);
  const size = Math.min(batchOptions.maxCommands ?? data.batchMaxCommands, data.batchMaxCommands);
  if (names.length === 0 || !(size >= 1)) throw new RangeError(`a batch takes at least one command, and 1 to ${data.batchMaxCommands} a request`);
  const requestOf = new Map(names.map((n, i) => [n, Math.floor(i / size)]));
  const cmds: Array<Record<string, string>> = [];
  for (const [i, name] of names.entries()) {
    const [method, params] = commands[name] ?? ["", undefined];
    if (webhook && appOnly.has(method)) throw refuse(method);
    for (const [, ref] of JSON.stringify(params ?? {}).matchAll(/\$result\[([^\]]+)\]/g)) {
      const at = requestOf.get(ref ?? "");
      if (at !== undefined && at !== requestOf.get(name)) {
        throw new RangeError(`batch command "${name}" refers to $result[${ref}], which goes in another request of ${size} commands; a reference works within one request`);
      }
    }
    const q = toQuery((params ?? {}) as Record<string, unknown>);
    (cmds[Math.floor(i / size)] ??= {})[name] = q ? `${method}?${q}` : method;
  }
  const out: BatchOutcome = { outcomes: {}, results: {}, errors: {}, time: undefined, times: [], raw: [] };
  for (const cmd of cmds) {
    let answer: Awaited<ReturnType<typeof send>>;
    try {
      answer = await send(data.batchMethod, "legacy", { halt: batchOptions.halt ? 1 : 0, cmd }, batchOptions);
    } catch (err) {
      // The requests before this one ran: their outcomes go with the error, so that a caller does not repeat them.
      throw out.raw.length > 0 && err && typeof err === "object" ? Object.assign(err, { batch: out }) : err;
    }
    const { result, time, response } = answer;
    out.time = time;
    out.times.push(time);
    out.raw.push(result);
    const r = (result ?? {}) as { result?: unknown; result_error?: unknown };
    const ok = (r.result && typeof r.result === "object" ? r.result : {}) as Record<string, unknown>;
    const failed = (r.result_error && typeof r.result_error === "object" ? r.result_error : {}) as Record<string, { error?: unknown; error_description?: unknown }>;
    let stop = false;
    for (const name of Object.keys(cmd)) {
      if (Object.hasOwn(failed, name)) {
        const e = failed[name];
        const error: ApiError = new rt.ApiError({
          method: commands[name]?.[0] ?? name,
          status: response.status,
          code: scrub(textOf(e?.error)),
          description: scrub(textOf(e?.error_description)),
        });
        out.errors[name] = error;
        out.outcomes[name] = { ok: false, error };
        stop = true;
      } else if (Object.hasOwn(ok, name)) {
        const value = rt.absolute(ok[name]);
        out.results[name] = value;
        out.outcomes[name] = { ok: true, result: value };
      }
    }
    if (stop && batchOptions.halt) break;
  }
  return out;
}

/**
 * Every record of a legacy list method, a page at a time, as the platform advises for large volumes
 * (https://apidocs.bitrix24.com/settings/performance/huge-data.html): for a method the generated data gives a cursor, the
 * filter takes `>ID` of the last record, the order is the identifier ascending and `start` is -1 (no count); a page
 * shorter than the page size is the last. Other list methods are walked with `start`: the first page tells `total`,
 * and the pages after it go `concurrency` at a time, yielded in order.
 */
/** Requests in flight at most, whatever `concurrency` asks: each holds a page in memory. */
const MAX_CONCURRENCY = 16;

export async function* all(rt: Bulk, method: string, params: Record<string, unknown> = {}, options: AllOptions = {}): AsyncGenerator<unknown[]> {
  const { send, data } = rt;
  const cursor = options.cursor === false ? undefined : data.cursor[method];
  const progress = { pages: 0, records: 0, total: undefined as number | undefined };
  const seen = (items: unknown[]) => {
    progress.pages++;
    progress.records += items.length;
    options.onProgress?.({ ...progress });
  };
  if (cursor) {
    const [filterName, orderName, id] = cursor;
    // The spec's names, or the lower-case ones the platform also takes.
    const pick = (name: string) => params[name] ?? params[name.toLowerCase()];
    const order = pick(orderName);
    const wanted = { [id]: "ASC" };
    if (order !== undefined && JSON.stringify(order) !== JSON.stringify(wanted)) {
      (options.onWarning ?? console.warn)(`all("${method}") walks by ${id} ascending (the platform's cursor for large lists); the given ${orderName} is replaced`);
    }
    const rest: Record<string, unknown> = { ...params };
    for (const name of [filterName, orderName]) delete rest[name.toLowerCase()];
    const filter = (pick(filterName) ?? {}) as Record<string, unknown>;
    let last: unknown = filter[`>${id}`] ?? 0;
    for (;;) {
      const { result } = await send(method, "legacy", { ...rest, [filterName]: { ...filter, [`>${id}`]: last }, [orderName]: wanted, start: -1 }, options);
      const items = Array.isArray(result) ? result : [];
      seen(items);
      if (items.length > 0) yield items;
      if (items.length < data.pageSize) return;
      const next = (items[items.length - 1] as Record<string, unknown> | undefined)?.[id];
      // A server that ignores the filter would send the same page for ever.
      if (!(numberOf(next) > numberOf(last))) throw new RangeError(`all("${method}"): the ${id} cursor did not advance past ${textOf(last)}; pass cursor: false`);
      last = next;
    }
  }
  const first = counted(await send(method, "legacy", { ...params, start: 0 }, options));
  const items = Array.isArray(first.result) ? first.result : [];
  progress.total = first.total;
  seen(items);
  if (items.length > 0) yield items;
  if (first.total === undefined || first.next === undefined) {
    // No count: the next page from `next`, or one after another until a short page.
    let start = first.next ?? items.length;
    if (first.next === undefined && items.length < data.pageSize) return;
    for (;;) {
      const page = counted(await send(method, "legacy", { ...params, start }, options));
      const more = Array.isArray(page.result) ? page.result : [];
      seen(more);
      if (more.length > 0) yield more;
      if (page.next === undefined && (page.total !== undefined || more.length < data.pageSize)) return;
      // A server that sends the same `next` again would keep the walk going for ever.
      if (page.next !== undefined && page.next <= start) throw new RangeError(`all("${method}"): next ${page.next} does not move past ${start}`);
      start = page.next ?? start + more.length;
    }
  }
  // The count is known: `concurrency` requests in flight, pages yielded in order. The starts are made one at a time
  // as requests go out, never listed up front: a first page that claims `total: 1e12` must not make the client
  // allocate a list of every start (a fatal invalid-size error the caller could not catch). What a walk
  // holds is bounded by `concurrency`, and a page shorter than the page size ends it whatever `total` said.
  const total = first.total;
  const step = data.pageSize > 0 ? data.pageSize : Math.max(1, items.length);
  let nextStart = first.next;
  const inFlight: Array<Promise<unknown[]>> = [];
  const fetchPage = (start: number) => send(method, "legacy", { ...params, start }, options).then((r) => (Array.isArray(r.result) ? r.result : []));
  const limit = Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(options.concurrency ?? 2) || 1));
  const more = () => Number.isFinite(total) && Number.isFinite(nextStart) && nextStart < total;
  while (more() || inFlight.length > 0) {
    while (inFlight.length < limit && more()) {
      const page = fetchPage(nextStart);
      nextStart += step;
      // Awaited in order below; until then (or after a failure or a `break` ends the walk) its rejection is handled.
      page.catch(() => {});
      inFlight.push(page);
    }
    const page = await (inFlight.shift() as Promise<unknown[]>);
    seen(page);
    if (page.length > 0) yield page;
    // A short page is the last, whatever the count claimed; the requests still in flight are left to settle.
    if (page.length < step) return;
  }
}

/**
 * An answer's paging members as numbers: a numeric string as its number (a `next: "50"` dropped ended a walk after its
 * first page, and added to a count made "5050", review), anything else but a number absent (an object such as
 * `{"toString": 1}` made the comparisons and messages below throw a TypeError where the walk should go on or end).
 */
function counted<T extends { next?: unknown; total?: unknown }>(answer: T): T & { next: number | undefined; total: number | undefined } {
  const number = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && /^\d{1,15}$/.test(v) ? Number(v) : undefined);
  return { ...answer, next: number(answer.next), total: number(answer.total) };
}

/** A value of an answer as text, "" for an object (whose own `toString` may be no function). */
const textOf = (v: unknown): string => (typeof v === "object" && v !== null ? "" : String(v ?? ""));

/** A value of an answer as a number, NaN for an object. */
const numberOf = (v: unknown): number => (typeof v === "object" && v !== null ? Number.NaN : Number(v));
