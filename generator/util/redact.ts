/** The one redaction of this repo, shared with the generated runtimes (runtime/shared/redact.ts). */
export { oneLine, redactAll as redactSecrets } from "../../runtime/shared/redact.js";
