/**
 * What `starts` reach through `next`, the starts among them: a walk with a queue, each item visited once (linear in
 * the items and the edges `next` gives).
 */
export function reach<T>(starts: Iterable<T>, next: (item: T) => Iterable<T>): Set<T> {
  const seen = new Set<T>();
  const queue = [...starts];
  while (queue.length > 0) {
    const item = queue.pop() as T;
    if (seen.has(item)) continue;
    seen.add(item);
    for (const n of next(item)) if (!seen.has(n)) queue.push(n);
  }
  return seen;
}
