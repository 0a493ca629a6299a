import type { FoundPlatformFacts, Fragments } from "../model/fragments.js";
import type { CatalogueError, Limit, PlatformFact } from "../model/types.js";

/**
 * The spec dialect's words for the platform's facts (issue 27): which catalogue entry is the expired token, the
 * request-rate limit, the codes a client may retry; which Limits row is the list page size or the idempotency key's
 * length; which 3.0 method returns the OpenAPI document. Each fact keeps the source of the row that says it. These
 * words were read by the emitters before; another dialect has a phrases module of its own, and a fact its input
 * does not state is left out here and defaulted, with a gap, in model/platform.ts.
 */
export function readPlatformFacts(f: Fragments): FoundPlatformFacts {
  const catalogue = f.errors.catalogue;
  const fact = <T>(value: T, from: { source: PlatformFact<T>["source"] }): PlatformFact<T> => ({ value, source: from.source });
  const coded = (find: (e: CatalogueError) => boolean) => {
    const e = catalogue.find(find);
    return e ? fact(e.code, e) : undefined;
  };
  // Each fact in the words of the spec and of its rewrites in other hands (test/fixtures/other-hands/): "request rate
  // exceeded", "The request rate was exceeded", "req rate exceeded"; "needs application context", "needs an app context".
  const retry = catalogue.filter((e) => e.kind === "system" && e.cause && /\bretry\b|lifted automatically|rate (?:was )?exceeded/i.test(e.cause));
  const codes: FoundPlatformFacts["codes"] = {
    ...(retry.length > 0 && retry[0] ? { retry: fact(retry.map((e) => e.code), retry[0]) } : {}),
    expiredToken: coded((e) => !!e.cause && /refresh it/i.test(e.cause)),
    operationTimeLimit: coded((e) => /operation time limit/i.test(e.text ?? "")),
    queryLimit: coded((e) => /\b(?:request|req) rate (?:was )?exceeded/i.test(e.cause ?? "")),
    wrongAuthType: coded((e) => !!e.cause && /\bneeds (?:an )?(?:application|app) context\b/i.test(e.cause)),
    unexpectedAnswer: coded((e) => /unexpected response/i.test(e.text ?? "")),
    invalidToken: coded((e) => e.kind === "auth" && /token not accepted/i.test(e.cause ?? "")),
  };
  const row = (re: RegExp): Limit | undefined => f.limits.table.find((l) => re.test(l.name));
  const page = row(/^(?:list )?page size$/i);
  const key = row(/^(?:idempotency key length|length of (?:an |the )?idempotency key)$/i);
  const retention = row(/^(?:idempotency (?:response|resp\.?) retention|retention of idempotent responses)$/i);
  const v3 = f.methods.filter((m) => m.version === "v3" && !m.wildcard);
  const doc = v3.find((m) => /OpenAPI (?:document|doc)\b/.test(m.result?.description ?? m.description));
  const scoping = /method-to-scope mapping|mapping of methods to scopes|method\s*→\s*scope mapping/i;
  const scopes = v3.find((m) => scoping.test(m.description) || scoping.test(m.result?.description ?? ""));
  return {
    codes: Object.fromEntries(Object.entries(codes).filter(([, v]) => v !== undefined)),
    paging: {
      ...(page?.max != null ? { pageSize: fact(page.max, page) } : {}),
      ...(page ? { listMethods: fact([...page.appliesTo.matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? ""), page) } : {}),
    },
    idempotency: {
      ...(key ? { keyLength: fact({ min: key.min ?? null, max: key.max ?? null, text: key.value }, key), printableAscii: fact(/printable ASCII/.test(key.value), key) } : {}),
      ...(retention?.max != null ? { retentionHours: fact(retention.max, retention) } : {}),
      rules: f.limits.rules.filter((r) => /idempoten/i.test(r.text)),
    },
    builtIns: {
      ...(doc ? { documentation: fact([doc.name, ...doc.aliases], doc) } : {}),
      ...(scopes ? { scopeList: fact([scopes.name, ...scopes.aliases], scopes) } : {}),
    },
  };
}
