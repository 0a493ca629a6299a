/**
 * Damerau–Levenshtein distance (the optimal string alignment form: insertions, deletions, substitutions and swaps of
 * two neighbours), for "did you mean" (decisions.md D31). Written by hand: it is a dozen lines over two short words,
 * and the npm packages for it (fastest-levenshtein, leven) do not count a swap as one edit.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array.from({ length: b.length }, () => 0)]);
  for (let j = 0; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const up = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = d;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** The candidate nearest to `word` within `max` edits (ties: the first in `candidates`), or null. */
export function nearest(word: string, candidates: Iterable<string>, max = 2): string | null {
  let best: string | null = null;
  let bestDistance = max + 1;
  for (const c of candidates) {
    // Words whose lengths differ by more than `max` cannot be within `max` edits: skipped without the table.
    if (Math.abs(c.length - word.length) > max) continue;
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
