/**
 * How the lines of a file's older text map to its newer text, from a line
 * diff: where each unchanged old line is now, and which new lines were
 * added or changed. Pure; lines count from 1.
 */
import { diffLines } from 'diff';

export interface LineMap {
  /** The new line of an old line that is still there, else undefined (changed or removed). */
  toNew(oldLine: number): number | undefined;
  /** New lines added or changed since the old text. */
  changed: Set<number>;
}

export function lineMap(before: string, after: string): LineMap {
  const map = new Map<number, number>();
  const changed = new Set<number>();
  let oldLine = 1;
  let newLine = 1;
  for (const part of diffLines(before, after)) {
    const count = part.count ?? 0;
    if (part.added) for (let i = 0; i < count; i++) changed.add(newLine++);
    else if (part.removed) oldLine += count;
    else for (let i = 0; i < count; i++) map.set(oldLine++, newLine++);
  }
  return { toNew: (line) => map.get(line), changed };
}
