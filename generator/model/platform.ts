import type { FoundPlatformFacts } from "./fragments.js";
import { type KnownGap, MODEL_VERSION, type Model, type PlatformFact, type PlatformFacts, type Source } from "./types.js";

/**
 * The one place that puts in the documented default of a platform fact no front end found (issue 27, decisions.md
 * D4): the platform's own codes and limits, each recorded as a `not-stated` known gap at the top of the input, so
 * that `model.json` says which facts the generated code took from the platform rather than from the input.
 */
export function platformFacts(found: FoundPlatformFacts, at: Source, gaps: KnownGap[]): PlatformFacts {
  const or = <T>(fact: PlatformFact<T> | undefined, value: T, subject: string): PlatformFact<T> => {
    if (fact) return fact;
    const shown = Array.isArray(value) && value.length === 0 ? "none" : JSON.stringify(value);
    gaps.push({ subject: `${subject}: read as ${shown}, the platform's`, kind: "not-stated", appliesTo: [], source: at });
    return { value, source: null };
  };
  const c = found.codes ?? {};
  const p = found.paging ?? {};
  const i = found.idempotency ?? {};
  const b = found.builtIns ?? {};
  const a = found.answers ?? {};
  return {
    codes: {
      retry: or(c.retry, [], "The codes a client may retry"),
      expiredToken: or(c.expiredToken, "expired_token", "The code of an expired access token"),
      operationTimeLimit: or(c.operationTimeLimit, "OPERATION_TIME_LIMIT", "The code of the execution-time limit"),
      queryLimit: or(c.queryLimit, "QUERY_LIMIT_EXCEEDED", "The code of the request-rate limit"),
      wrongAuthType: or(c.wrongAuthType, "WRONG_AUTH_TYPE", "The code of a webhook calling an application-context method"),
      unexpectedAnswer: or(c.unexpectedAnswer, "ERROR_UNEXPECTED_ANSWER", "The code of an unexpected answer"),
      invalidToken: or(c.invalidToken, "invalid_token", "The code of a token that is not accepted"),
    },
    paging: {
      pageSize: or(p.pageSize, 50, "The page size of legacy list methods"),
      // No gap: without a list of them, list methods are those with a `start` offset.
      listMethods: p.listMethods ?? { value: [], source: null },
    },
    idempotency: {
      // Without the input's bounds the key is what the platform's reference says: 1 to 255 printable ASCII.
      keyLength: i.keyLength ?? { value: { min: null, max: null, text: "" }, source: null },
      printableAscii: i.printableAscii ?? { value: false, source: null },
      retentionHours: or(i.retentionHours, 24, "How long a response is kept for an idempotency key, in hours"),
      rules: i.rules ?? [],
    },
    builtIns: {
      documentation: b.documentation ?? { value: [], source: null },
      scopeList: b.scopeList ?? { value: [], source: null },
    },
    // No gap for these: without them the server answers a method's own ACCESS_DENIED and the catalogue's text, and
    // the client makes no member absolute.
    answers: {
      notAdministrator: a.notAdministrator ?? { value: null, source: null },
      insufficientScope: a.insufficientScope ?? { value: null, source: null },
    },
    links: found.links ?? { value: [], source: null },
  };
}

/**
 * A model read back from an earlier `model.json` (`--previous`, the version base) in today's shape (decisions.md D28).
 * A model before version 2 has no `platform`; one before version 3 has no `answers` or `links` in it and no `effect`
 * on its States rows. They get the defaults and `unread`, which nothing compares (the diff judges the input's words,
 * and these facts are read from them), so an unchanged spec across the upgrade is `bump: none`.
 */
export function migrateModel(raw: Model): Model {
  if (typeof raw.modelVersion === "number" && raw.modelVersion >= MODEL_VERSION) return raw;
  const defaults = platformFacts({}, { file: raw.specFile, line: 1, column: 1 }, []);
  const platform = raw.platform ? { ...raw.platform, answers: raw.platform.answers ?? defaults.answers, links: raw.platform.links ?? defaults.links } : defaults;
  const transitions = raw.states.transitions.map((t) => ({ ...t, effect: t.effect ?? { kind: "unread" as const, method: null } }));
  return { ...raw, modelVersion: MODEL_VERSION, platform, states: { ...raw.states, transitions } };
}
