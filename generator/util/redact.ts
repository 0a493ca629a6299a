/** The one redaction of this repo, shared with the generated runtimes (templates/runtime/shared/redact.ts). */
export { redactAll as redactSecrets } from "../../templates/runtime/shared/redact.js";
