import type { ApiError, ApiErrorInit } from "./errors.js";
import { toQuery } from "./query.js";
import type { BatchOptions, BatchOutcome, Bulk, PageOptions } from "./runtime.js";

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
    const { result, next, total } = await send(method, "legacy", { ...params, start }, pageOptions);
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
    const { result, time, response } = await send(data.batchMethod, "legacy", { halt: batchOptions.halt ? 1 : 0, cmd }, batchOptions);
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
        const error: ApiError = rt.error({
          method: commands[name]?.[0] ?? name,
          status: response.status,
          code: scrub(String(e?.error ?? "")),
          description: scrub(String(e?.error_description ?? "")),
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
