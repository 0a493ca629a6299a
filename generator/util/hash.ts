import { hash } from "node:crypto";

/** The SHA-256 of a text's UTF-8 bytes, in hex: the one-shot `hash` (Node 20.12+), twice as fast on short texts. */
export function sha256(text: string): string {
  return hash("sha256", text, "hex");
}
