import type { EventPayload, Method, Placement } from "./types.js";

/**
 * The platform's methods that take an event's name (`event.bind` and `event.unbind`, api-reference/events/): where
 * the model knows the events (the reference's event pages), that parameter's known values are their names, an open
 * set (a portal may have events of its own: the names are the ones documented, not the only ones). A parameter the
 * input types otherwise (not a plain string) is left as it is.
 */
const TAKES_EVENT: ReadonlyArray<readonly [string, string]> = [
  ["event.bind", "event"],
  ["event.unbind", "event"],
];

/**
 * The platform's methods that take a placement's code (`placement.bind` and `placement.unbind`,
 * api-reference/widgets/): where the model knows the placements (the reference's widget pages), `PLACEMENT`'s known
 * values are their codes, an open set. A family's code (`CRM_DYNAMIC_XXX_DETAIL_TAB`) is no value a call sends and
 * is left out; the types' `PlacementCode` holds it as a pattern.
 */
const TAKES_PLACEMENT: ReadonlyArray<readonly [string, string]> = [
  ["placement.bind", "PLACEMENT"],
  ["placement.unbind", "PLACEMENT"],
];

export function withKnownEvents(methods: readonly Method[], events: readonly EventPayload[]): Method[] {
  return withKnownValues(methods, TAKES_EVENT, events.map((e) => e.name));
}

export function withKnownPlacements(methods: readonly Method[], placements: readonly Placement[]): Method[] {
  return withKnownValues(methods, TAKES_PLACEMENT, placements.flatMap((p) => p.codes).filter((c) => !c.includes("XXX")));
}

/** Gives the parameter each `[method, parameter]` names the values as an open set, where it is a plain string. */
function withKnownValues(methods: readonly Method[], takes: ReadonlyArray<readonly [string, string]>, values: readonly string[]): Method[] {
  const known = [...new Set(values)].sort();
  if (known.length === 0) return [...methods];
  return methods.map((m) => {
    const param = takes.find(([method]) => method === m.name)?.[1];
    const p = param ? m.params.find((x) => x.name === param) : undefined;
    if (!p || p.type.kind !== "primitive" || p.type.type !== "string" || p.type.enum) return m;
    const type = { ...p.type, enum: known, openEnum: true };
    // New objects: the methods may be another model's too (the spec's, in a merge).
    return { ...m, params: m.params.map((x) => (x === p ? { ...x, type } : x)) };
  });
}
