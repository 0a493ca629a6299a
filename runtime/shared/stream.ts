/**
 * Reads a body stream whole, up to a cap: the client reads answers and the router reads requests with it. `null`
 * when the body is longer than the cap, or declares (`Content-Length`) that it is; the stream is then cancelled,
 * not read on.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, cap: number, declaredLength: string | null = null): Promise<string | null> {
  if (Number(declaredLength ?? "NaN") > cap) {
    await body?.cancel().catch(() => undefined);
    return null;
  }
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}
