import { methodGaps } from "../../model/questions.js";
import type { Method, Model } from "../../model/view.js";
import { type PrintContext, doc, readElsewhere, sentence } from "./printer.js";
import { words } from "../prose.js";

/**
 * A method's JSDoc: what the spec says of it (description, scopes, who may call, application context, idempotency,
 * notes, constraints, gaps) and `@deprecated` with the replacement. The types' interface entries and the client's
 * namespace members carry the same text, so hovering either in an editor shows it. `see: false` leaves the `@see`
 * out, for a package that does not ship the spec.
 */
export function methodDoc(m: Method, ctx: PrintContext, model: Model, options: { see?: boolean } = {}): string {
  const gaps = methodGaps(model, m).map((g) => g.subject);
  const scopesFrom = readElsewhere("Scope", m.source, m.scopesSource, ctx);
  return doc(
    [
      `\`${m.name}\`${m.version === "v3" ? " (3.0)" : ""}${m.described ? "" : ": named in the spec without its parameters or result."}`,
      m.description ? sentence(m.description) : null,
      m.scopes ? `Scope: ${m.scopes.map((s) => `\`${s}\``).join(", ")}${m.scopeNote ? ` (${words(m.scopeNote)})` : ""}.` : null,
      scopesFrom.note,
      m.access ? `Who may call: ${sentence(m.access.text)}` : null,
      m.applicationContextOnly ? "Application context only: a webhook gets `WRONG_AUTH_TYPE`." : null,
      m.idempotencyKey ? "Honours the `Idempotency-Key` header." : null,
      ...m.notes.map((n) => sentence(n.text)),
      ...m.constraints.map((c) => sentence(c.text)),
      gaps.length ? `Not shown in the spec: ${gaps.join("; ")}.` : null,
    ],
    ctx,
    options.see === false ? undefined : m.source,
    [...(m.deprecated ? [`@deprecated ${m.deprecated.replacement ? `Use \`${m.deprecated.replacement}\`.` : words(m.deprecated.text)}`] : []), ...scopesFrom.tags],
  );
}
