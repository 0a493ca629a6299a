import { readCapped } from "../shared/stream.js";
import { TRANSPORT_CODES, TransportError } from "./errors.js";

/**
 * One HTTP attempt: a POST with a time-out, redirects refused (or followed within the origin), and an answer read
 * up to a size cap. Every way of getting no usable answer becomes a `TransportError` whose message and cause hold
 * no credential; a cancellation by the caller's own signal is passed on as the caller's reason.
 */

export interface AttemptInput {
  method: string;
  url: string;
  body: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
  /** The caller's signal: aborting it rejects with its reason. */
  signal?: AbortSignal | undefined;
  /** Ms this attempt may take, its body included; 0: no time-out (and no signal of its own). */
  timeoutMs: number;
  maxResponseBytes: number;
  /** `error`: any redirect is a `REDIRECT` error; `same-origin`: followed while it stays on the same origin. */
  redirects: "error" | "same-origin";
  scrub: (text: string) => string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  response: Response;
}

const MAX_HOPS = 5;

/** An error of its own for the cause: the fetch error's stack and members may name the URL with its credential. */
function safeCause(err: unknown, scrub: (text: string) => string): Error {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const inner = e?.cause?.code ?? e?.cause?.message;
  return new Error(scrub(`${e?.name ?? "Error"}: ${e?.message ?? String(err)}${inner ? ` (${inner})` : ""}`));
}

/** An answer's text up to the cap: a declared length within it is read at once, anything else as it comes. */
function readAnswer(response: Response, cap: number): Promise<string | null> {
  const declared = response.headers.get("content-length");
  return declared !== null && Number(declared) <= cap ? response.text() : readCapped(response.body, cap, declared);
}

export async function attempt(input: AttemptInput): Promise<Answer> {
  // AbortSignal.timeout, not a controller and a timer: it costs a tenth of the call rate less (measured, bench/ab).
  const timeout = input.timeoutMs > 0 ? AbortSignal.timeout(input.timeoutMs) : undefined;
  const signal = input.signal && timeout ? AbortSignal.any([input.signal, timeout]) : (timeout ?? input.signal);
  const timedOut = () => Boolean(timeout?.aborted) && !input.signal?.aborted;
  const fail = (code: (typeof TRANSPORT_CODES)[keyof typeof TRANSPORT_CODES], description: string, status = 0, cause?: unknown) =>
    new TransportError({ method: input.method, status, code, description, unclear: code === TRANSPORT_CODES.network || code === TRANSPORT_CODES.timeout, cause });
  // A fetch or a body read that threw: the caller's abort as it is, else a time-out, else a network fault. One
  // function for both places: it also keeps a one-call program within its size budget.
  const fault = (err: unknown, status = 0): unknown =>
    input.signal?.aborted ? input.signal.reason : timedOut() ? fail(TRANSPORT_CODES.timeout, `no answer in ${input.timeoutMs} ms`, status) : fail(TRANSPORT_CODES.network, "connection failed", status, safeCause(err, input.scrub));
  try {
    if (input.signal?.aborted) throw input.signal.reason;
    let url = input.url;
    for (let hop = 0; ; hop++) {
      let response: Response;
      try {
        response = await input.fetch(url, { method: "POST", headers: input.headers, body: input.body, signal, redirect: "manual" });
      } catch (err) {
        throw fault(err);
      }
      const redirected = response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400 && response.status !== 304);
      if (redirected) {
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get("location");
        let target: URL | null = null;
        try {
          target = location ? new URL(location, url) : null;
        } catch {
          target = null;
        }
        const from = new URL(url);
        if (input.redirects === "same-origin" && target && target.origin === from.origin && hop < MAX_HOPS) {
          url = target.href;
          continue;
        }
        // The host only: a Location may carry a credential in its path or query.
        const where = target ? ` to ${target.protocol}//${target.host}` : "";
        throw fail(TRANSPORT_CODES.redirect, `redirect${where} not followed`, response.status);
      }
      let text: string | null;
      try {
        text = await readAnswer(response, input.maxResponseBytes);
      } catch (err) {
        throw fault(err, response.status);
      }
      if (text === null) throw fail(TRANSPORT_CODES.tooLarge, `answer over ${input.maxResponseBytes} bytes`, response.status);
      return { status: response.status, headers: response.headers, text, response };
    }
  } catch (err) {
    // A time-out that surfaced elsewhere (a body read that rejected with the signal's reason) is still a time-out.
    if (timedOut() && !(err instanceof TransportError)) throw fail(TRANSPORT_CODES.timeout, `no answer in ${input.timeoutMs} ms`);
    throw err;
  }
}
