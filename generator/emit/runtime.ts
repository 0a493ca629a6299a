import type { KeyRule } from "../../runtime/shared/data.js";
import type { Model } from "../model/view.js";
import type { GeneratedFile } from "./files.js";

/**
 * The compiled runtimes (runtime/, built to dist/shipped-runtime with the generator) as files of a generated
 * package: `<package>/runtime/shared/…` and `<package>/runtime/<package>/…`, each with the generated header. They are
 * tsc's output, copied as they are: not formatted again, not rendered.
 */
export function runtimeFiles(runtime: Readonly<Record<string, string>>, pkg: "client" | "server", header: string): GeneratedFile[] {
  return Object.keys(runtime)
    // The client's shape is shipped as `client/shape.d.ts` from its source (emit/client), not as compiled here.
    .filter((p) => (p.startsWith("shared/") || p.startsWith(`${pkg}/`)) && !p.startsWith("client/shape."))
    .sort()
    .map((p) => ({ path: `${pkg}/runtime/${p}`, raw: true, contents: `// ${header}\n${runtime[p] ?? ""}` }));
}

/** The spec's `Idempotency-Key` rule from the limits table (length range; printable ASCII). */
export function idempotencyKeyRule(model: Model): KeyRule {
  const length = model.platform.idempotency.keyLength.value;
  return {
    minLength: length.min ?? 1,
    maxLength: length.max ?? 255,
    // "printable ASCII": the characters from space to tilde.
    charCodes: [0x20, 0x7e],
  };
}

/** The name of the legacy batch method: the platform's, which the spec names among the SDK helpers. */
export const BATCH_METHOD = "batch";
/** The documentation's limit of commands in one batch (settings/how-to-call-rest-api/batch.md: 50); the spec does not show it. */
export const BATCH_MAX_COMMANDS = 50;
