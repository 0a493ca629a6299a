import type { FoundPlatformFacts, Fragments } from "../model/fragments.js";
import type { Field, PlatformFact } from "../model/types.js";
import { topMembers } from "../model/members.js";

/**
 * The reference dialect's words for the platform's facts (issue 27; the spec's are read/phrases.ts): which error a
 * page lists for a caller who is not an administrator, the `insufficient_scope` text of the system errors include,
 * and the members its tables describe as links. Every other fact is left out here and defaulted, with its gap where
 * it has one, in model/platform.ts.
 */
export function readReferenceFacts(f: Fragments): Pick<FoundPlatformFacts, "answers" | "links"> {
  const fact = <T>(value: T, from: { source: PlatformFact<T>["source"] }): PlatformFact<T> => ({ value, source: from.source });
  // "Access denied" for a caller who is not the portal's administrator (a page's Possible Error Codes row).
  const notAdmin = f.methods.find((m) => m.errors.some(isNotAdministrator));
  const notAdminError = notAdmin?.errors.find(isNotAdministrator);
  // The system errors include quotes one text of `insufficient_scope`: the same for webhooks and applications.
  const scope = f.catalogue.find((e) => e.kind === "system" && e.code === "insufficient_scope" && e.text);
  // A member whose description calls it a link, a URL or a download ("Link to the avatar", "URL of the page").
  const names = new Set<string>();
  for (const x of topMembers<Field>(f.resources, f.methods)) if (/\b(link|URL|download)\b/i.test(x.description)) names.add(x.name);
  const first = f.resources[0] ?? f.methods[0];
  return {
    answers: {
      ...(notAdmin && notAdminError?.code && notAdminError.text ? { notAdministrator: fact({ method: notAdmin.name, version: notAdmin.version, code: notAdminError.code, text: notAdminError.text }, notAdmin) } : {}),
      ...(scope?.text ? { insufficientScope: fact({ webhook: scope.text, application: scope.text }, scope) } : {}),
    },
    ...(names.size > 0 && first ? { links: { value: [...names].sort(), source: first.source } } : {}),
  };
}

const isNotAdministrator = (e: Fragments["methods"][number]["errors"][number]) => e.code === "ACCESS_DENIED" && !!e.text && /administrator/.test(e.cause ?? "");
