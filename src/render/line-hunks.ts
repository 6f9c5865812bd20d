/**
 * The hunks of a unified diff, found by comparing line by line, for the
 * edit most renames make: lines replaced in place. Myers' diff (jsdiff)
 * costs a dry run of a 2,000-file rename about 25 ms on the daemon's one
 * thread; this costs a fraction. It answers only where its hunks are the
 * ones Myers' diff finds, else undefined and the caller diffs:
 * - both texts end in a newline and hold no carriage return;
 * - as many lines after as before;
 * - no changed line's text is anywhere on the other side. Then the longest
 *   common subsequence is exactly the unchanged lines, in place, and the
 *   only edit script is each run of changed lines removed, then added.
 * Pure.
 */

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Each line with its mark: ' ' kept, '-' removed, '+' added. */
  lines: string[];
}

export function inPlaceHunks(before: string, after: string, context: number): Hunk[] | undefined {
  if (!before.endsWith('\n') || !after.endsWith('\n') || before.includes('\r') || after.includes('\r'))
    return undefined;
  const a = before.slice(0, -1).split('\n');
  const b = after.slice(0, -1).split('\n');
  if (a.length !== b.length) return undefined;
  const changed: { line: number; old: string; now: string }[] = [];
  a.forEach((old, line) => {
    const now = b[line];
    if (now !== undefined && now !== old) changed.push({ line, old, now });
  });
  if (changed.length === 0) return [];
  // Looked up in a set only where searching the lines would cost more than making one.
  const big = changed.length * a.length > 256;
  const olds = big ? new Set(a) : undefined;
  const news = big ? new Set(b) : undefined;
  const onOther = ({ old, now }: { old: string; now: string }) =>
    olds && news ? news.has(old) || olds.has(now) : b.includes(old) || a.includes(now);
  if (changed.some(onOther)) return undefined;
  // Changes no more than twice the context apart share a hunk, as diff(1) and jsdiff join them.
  const groups: { first: number; last: number }[] = [];
  for (const { line } of changed) {
    const group = groups.at(-1);
    if (group && line - group.last - 1 <= 2 * context) group.last = line;
    else groups.push({ first: line, last: line });
  }
  const hunks: Hunk[] = [];
  for (const group of groups) {
    const start = Math.max(0, group.first - context);
    const end = Math.min(a.length - 1, group.last + context);
    const lines: string[] = [];
    for (let k = start; k <= end; ) {
      if (a[k] === b[k]) {
        lines.push(` ${a[k]}`);
        k++;
        continue;
      }
      let m = k;
      while (m <= end && a[m] !== b[m]) m++;
      for (let x = k; x < m; x++) lines.push(`-${a[x]}`);
      for (let x = k; x < m; x++) lines.push(`+${b[x]}`);
      k = m;
    }
    const count = end - start + 1;
    hunks.push({ oldStart: start + 1, oldLines: count, newStart: start + 1, newLines: count, lines });
  }
  return hunks;
}
