/** The word a typo meant: pure, for the command's process (an unknown command or flag) and the engine's hints. */

/** Levenshtein distance, case-insensitive unless asked. */
export function editDistance(a: string, b: string, ignoreCase = true): number {
  const x = ignoreCase ? a.toLowerCase() : a;
  const y = ignoreCase ? b.toLowerCase() : b;
  // One row of the table at a time; `left` and `diagonal` are its neighbours of the cell being filled.
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    let left = i;
    let diagonal = i - 1;
    for (const [j, up] of row.slice(1).entries()) {
      left = Math.min(up + 1, left + 1, diagonal + (x[i - 1] === y[j] ? 0 : 1));
      diagonal = up;
      next.push(left);
    }
    row = next;
  }
  return row.at(-1) ?? y.length; // never empty: y.length + 1 cells
}

/**
 * The one of `known` that `word` most likely misspells: the closest within
 * a few edits (one for a short word, up to three for a long one), else the
 * only one it starts; none when nothing is that close.
 */
export function didYouMean(word: string, known: readonly string[]): string | undefined {
  const reach = word.length <= 3 ? 1 : word.length <= 6 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = reach + 1;
  for (const k of known) {
    const d = editDistance(word, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  if (best !== undefined) return best;
  const started = known.filter((k) => word.length >= 2 && k.startsWith(word));
  return started.length === 1 ? started[0] : undefined;
}
