import { parentPort } from "node:worker_threads";
import type { GeneratedFile } from "../emit/files.js";
import { formatFiles } from "./format.js";

/** Worker side of the formatter: loads prettier at once, then formats what it is sent. */
const port = parentPort;
if (port) {
  // Load prettier and warm its parser and printer on a sample while the main thread reads the spec.
  const sample = Array.from({ length: 40 }, (_, i) => `/**\n * Field ${i}.\n * @see spec.md:${i}\n */\nexport interface T${i} { a?: string | null; "b.c": Array<{ d: number }>; e: "Y" | "N" }\nexport type U${i} = T${i} & (Required<Pick<T${i}, "a">> | { b?: never });`).join("\n");
  const warm = formatFiles([{ path: "warm.d.ts", contents: sample }, { path: "warm.js", contents: "export const a = { b: [1, 2] };" }]).catch(() => undefined);
  port.on("message", async (msg: { id: number; files: GeneratedFile[] }) => {
    try {
      await warm;
      port.postMessage({ id: msg.id, files: await formatFiles(msg.files) });
    } catch (err) {
      port.postMessage({ id: msg.id, error: (err as Error).stack ?? String(err) });
    }
  });
}
