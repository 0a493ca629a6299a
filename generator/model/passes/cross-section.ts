import { CALLING_THE_API, type Field, type KnownGap } from "../types.js";
import { gapKey } from "../fragments.js";
import type { PassContext } from "./context.js";

/**
 * Pass 4: rules one section of the input states about methods of another (the application-context list, limits that
 * name a parameter, the verbs).
 */
export function applyCrossSectionRules(ctx: PassContext): void {
  const { f, methods, gaps, find, options } = ctx;
  // Cross-section rules.
  for (const a of f.facts.applicationContext) {
    for (const m of methods.filter((x) => x.name === a.name && x.version === "legacy")) m.applicationContextOnly = true;
  }
  // Limits that name a parameter of a method in backticks ("`limit` | 1 to 1000, default 20 | `sign.b2e.personal.tail`").
  for (const l of f.facts.limits) {
    const param = /^`([A-Za-z_]\w*)`$/.exec(l.name)?.[1];
    const target = /^`([^`]+)`$/.exec(l.appliesTo)?.[1];
    const m = target ? find(target, "legacy") : undefined;
    if (!param || !m) continue;
    const integer = l.min !== undefined && l.max !== undefined;
    const p: Field = {
      name: param,
      type: integer ? { kind: "primitive", type: "integer", minimum: l.min, maximum: l.max } : { kind: "unknown" },
      required: false,
      nullable: false,
      description: l.value,
      ...(l.defaultValue !== undefined ? { default: { value: l.defaultValue, text: String(l.defaultValue) } } : {}),
      source: l.source,
    };
    if (!m.params.some((x) => x.name === param)) m.params.push(p);
    if (!m.described) {
      m.described = true;
      const gap: KnownGap = { subject: "The method has no section of its own in Endpoints: scope, access and errors", kind: "not-stated", appliesTo: [`method:${m.version}:${m.name}`], source: m.source };
      gaps.push(gap);
      // Its errors are among what it leaves open.
      ctx.errorGaps.add(gapKey(gap));
    }
  }
  // The front end read it ("In 3.0 methods without parameters accept GET or POST.", read/phrases.ts).
  if (f.facts.transport?.v3GetWithoutParams) for (const m of methods) if (m.version === "v3" && m.described && m.params.length === 0) m.httpMethods = ["GET", "POST"];
  // Legacy GET (D32): the spec's addressing shows POST and says nothing of GET; the platform's reference says simple
  // requests may be sent by GET with query parameters. The generator's option (default on) decides, and the model
  // records the reading as a document-level gap so that `model.json` says where the verb came from.
  if (options.legacyGet !== false) {
    const legacy = methods.filter((m) => m.version === "legacy" && !m.wildcard);
    for (const m of legacy) if (!m.httpMethods.includes("GET")) m.httpMethods = ["GET", ...m.httpMethods];
    const form = f.facts.addressingForms.find((x) => x.version === "legacy") ?? null;
    if (legacy.length > 0 && form) {
      gaps.push({
        subject: `Whether legacy methods take GET with query parameters: read as yes, as the platform's reference says (${CALLING_THE_API}); option legacyGet`,
        kind: "not-stated",
        appliesTo: [],
        source: form.source,
      });
    }
  }
}
