import type { SpecReading } from "./reading.js";
import type { Method, StateEffect, StateLiteral, StateTransition } from "../model/types.js";

/**
 * The spec dialect's words for what a States row does (issue 27): "`isPinned` … `N`", "with status 1 (default)" and
 * "`publicUrl` holds the link", "stored in statistics", "present in statistics", "reserved under `process_id`",
 * "binding the same handler again returns `ERROR_CORE`". Each row gets a typed `effect` that the mock acts on; the
 * mock (emit/server/mock.ts) reads no word of the row. A row none of these readings recognises is `unread`, and the
 * mock says so when it starts. Runs once the whole input is read: a row names methods the spec describes later, and
 * "same method" is the row above's.
 */
export function readStateEffects(f: SpecReading): void {
  const legacy = new Map<string, Method | null>();
  for (const m of f.methods) if (m.version === "legacy" && !legacy.has(m.name)) legacy.set(m.name, m);
  for (const n of f.named) if ((n.version ?? "legacy") === "legacy" && !legacy.has(n.name)) legacy.set(n.name, null);
  let previous: string | null = null;
  for (const t of f.states.transitions) {
    // The method: named by the trigger ("`m` with status 1", "the same method with status 0"), or, where the trigger
    // is a label ("External call → stored"), by the next state that opens with it ("`m`, for a call …, stores …").
    const opening = /^`([^`]+)`/.exec(t.next)?.[1];
    const named: string | null = /^(?:the )?same method\b/i.test(t.trigger)
      ? previous
      : (ticked(t.trigger).find((n) => legacy.has(n)) ?? (opening && legacy.has(opening) && !ticked(t.trigger).length ? opening : null));
    previous = named ?? previous;
    t.effect = effectOf(t, named, named ? (legacy.get(named) ?? null) : null, legacy);
  }
}

/** The backticked names of a text (`` `isPinned` `` → isPinned). */
const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

/** A literal of the spec (`N`, `false`, `1`) as a value. */
function literal(text: string): StateLiteral {
  if (text === "true" || text === "false") return text === "true";
  if (/^-?\d+$/.test(text)) return Number(text);
  return text;
}

function effectOf(t: StateTransition, method: string | null, described: Method | null, legacy: Map<string, Method | null>): StateEffect {
  if (/idempotency record/i.test(t.subject)) return { kind: "idempotency" };
  if (!method) {
    const code = /binding (?:the )?same handler again (?:returns|→) `?(\w+)`?/i.exec(t.also)?.[1];
    // "Binding" a handler is the platform's `event.bind`.
    if (code) return { kind: "unique-binding", method: legacy.has("event.bind") ? "event.bind" : null, code };
    if (/\b(?:application|app) (?:removed|updated)/i.test(t.trigger)) return { kind: "installation" };
    return { kind: "unread", method: null };
  }
  // "with status 1 (the default)", "w/ status 1"; "`publicUrl` holds the link", "`publicUrl` = null".
  const status = /(?:with|w\/) (\w+) (\d+)/i.exec(t.trigger);
  const link = /`(\w+)` (?:holds the link|= the link|is null|= null)/i.exec(t.also);
  if (status && link) {
    const on = !/null/i.test(link[0]);
    return { kind: "link", method, param: status[1] as string, value: literal(status[2] as string), on, byDefault: /\((?:the )?default\)/i.test(t.trigger), field: link[1] as string };
  }
  const subjectField = ticked(t.subject)[0];
  // "`N` in the caller's task list", "sets the flag to `N` …".
  const nextValue = /^(?:sets? (?:the [\w ]+? )?to )?`([^`]+)`/i.exec(t.next)?.[1];
  if (subjectField && nextValue) return { kind: "set", method, member: null, field: subjectField, value: literal(nextValue) };
  // "response carries `attach` (example shows `isVoted` false)".
  const example = /`(\w+)`[^`]*shows `(\w+)` (\w+)/i.exec(t.also) ?? /response carries `(\w+)` \(example shows `(\w+)` (\w+)\)/i.exec(t.also);
  if (example) return { kind: "set", method, member: example[1] as string, field: example[2] as string, value: literal(example[3] as string) };
  // "call stored in statistics", "stores the call in statistics".
  const stored = /\bstored in (\w+)|\bstores the \w+ in (\w+)/i.exec(t.next);
  if (stored) return { kind: "store", method, collection: (stored[1] ?? stored[2]) as string, crm: /\bCRM\b/.test(`${t.next} ${t.also}`) };
  // The condition, or a condition the next state writes in ("`m`, for a call that is already finished (present in
  // statistics), attaches …").
  const present = /present in (\w+)/i.exec(t.condition) ?? /\bfor a \w+ that [^,()]{0,60}\(present in (\w+)\)/i.exec(t.next);
  if (present) {
    const failed = described?.errors.find((e) => e.code !== null && e.text && /not found|not finished/i.test(e.text));
    const error = failed?.code != null && failed.text ? { code: failed.code, text: failed.text } : null;
    // "With `FILENAME` and no `FILE_CONTENT` (and no `RECORD_URL`): `result` has `uploadUrl` …": which option of the
    // result answers, from the result's description.
    // Also "`FILENAME` without `FILE_CONTENT` (and without `RECORD_URL`): `uploadUrl` …", "… w/o … → `result` has …",
    // "When `FILENAME` is passed without …, `result` contains `uploadUrl` …".
    const rule = /(?:^|\b(?:With|When)\s+)`(\w+)`(?: is passed)? (?:and no|without|w\/o) `(\w+)`(?: \((?:and )?(?:no|without|w\/o) `(\w+)`\))?(?::|,|\s*→)\s*(?:`result` (?:has|contains) )?`(\w+)`/i.exec(described?.result?.description ?? "");
    const choice = rule ? { given: rule[1] as string, absent: [rule[2], rule[3]].filter((x): x is string => Boolean(x)), member: rule[4] as string } : null;
    return { kind: "require", method, collection: present[1] as string, error, replaces: /replaces/i.test(t.also), choice };
  }
  // The offline queue's id: named in the row, or a parameter of the method.
  const id = ticked(`${t.subject} ${t.trigger} ${t.condition} ${t.next} ${t.also}`).find((n) => /process_id/i.test(n)) ?? described?.params.find((p) => /process_id/i.test(p.name))?.name ?? null;
  const reserve = /(?:with|w\/) `(\w+)=(\d+)`/.exec(t.trigger);
  if (reserve && /\breserved under|\breserves (?:a|the) batch under/i.test(t.next)) return { kind: "offline-reserve", method, param: reserve[1] as string, value: literal(reserve[2] as string), id };
  // "records removed from the queue", "the records are removed …", "removes the records of a reserved batch from …".
  if (/\brecords (?:are )?removed from (?:the )?queue|\bremoves the records\b[^.;]{0,60}? from the queue/i.test(t.next)) return { kind: "offline-clear", method, id };
  if (/\brecords (?:are )?marked as failed|\bmarks the records\b[^.;]{0,60}? as failed/i.test(t.next)) return { kind: "offline-error", method, id };
  if (/installation (?:is )?not finished/i.test(t.condition) && /\bhidden\b|\bhides\b/i.test(t.next)) {
    // What `placement.bind` registers, `placement.get` lists.
    const list = method.endsWith(".bind") ? `${method.slice(0, -".bind".length)}.get` : null;
    return { kind: "hidden-until-installed", method, list: list && legacy.has(list) ? list : null, shownAfter: /\bshown (?:after|once)\b/i.test(t.also) };
  }
  return { kind: "unread", method };
}
