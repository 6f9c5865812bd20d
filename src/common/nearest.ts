/** The word a typo meant: pure, for the command's process (an unknown command or flag) and the engine's hints. */

/** Levenshtein distance, case-insensitive unless asked. */
export function editDistance(a: string, b: string, ignoreCase = true): number {
  const x = ignoreCase ? a.toLowerCase() : a;
  const y = ignoreCase ? b.toLowerCase() : b;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length]!;
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
