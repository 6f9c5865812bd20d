/**
 * A formatter's answer, the file's whole new text, as edits of the text it
 * was given: each run of changed lines is one edit, and with --range only
 * the edits that touch its lines are kept. Pure.
 */
import { diffLines } from 'diff';

export interface LineEdits {
  after: string;
  edits: number;
}

/** `formatted` as edits of `before`: with `lines` (1-based, inclusive), only those that touch them. */
export function formattedEdits(before: string, formatted: string, lines?: { start: number; end: number }): LineEdits {
  let after = '';
  let edits = 0;
  // The edit being gathered: the line of `before` it starts at, the lines it removes, what it puts there.
  let at = 1;
  let removed = { count: 0, text: '' };
  let added = '';
  const touches = (start: number, count: number) => {
    if (!lines) return true;
    // An insertion touches the range where it goes in within it or right after its last line.
    if (count === 0) return start >= lines.start && start <= lines.end + 1;
    return start <= lines.end && start + count - 1 >= lines.start;
  };
  const settle = () => {
    if (removed.count === 0 && added === '') return;
    const kept = touches(at, removed.count);
    after += kept ? added : removed.text;
    if (kept) edits++;
    at += removed.count;
    removed = { count: 0, text: '' };
    added = '';
  };
  for (const part of diffLines(before, formatted)) {
    if (part.removed) removed = { count: removed.count + (part.count ?? 0), text: removed.text + part.value };
    else if (part.added) added += part.value;
    else {
      settle();
      after += part.value;
      at += part.count ?? 0;
    }
  }
  settle();
  return { after, edits };
}
