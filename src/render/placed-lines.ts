/**
 * Code around the answer, in grep -n's form: each place's own line as the
 * command renders it, the other lines of its window as `path-LINE-text`;
 * windows of one file that touch or overlap are merged, and groups are set
 * apart by a line `--`; with bodies, each group ends with one.
 */
import type { Body, Context } from '../answers/places';

/** A rendered answer line and where it points. */
export interface Placed {
  /** The path as printed. */
  path: string;
  line: number;
  text: string;
  context?: Context;
  body?: Body | null;
}

interface Group {
  path: string;
  start: number;
  end: number;
  /** The last place's line: a later place above it starts a new group (tree order is not line order). */
  last: number;
  own: Map<number, string[]>;
  lines: Map<number, string>;
}

/** The window a place brings: its context, its body, or only itself. */
function windowOf(p: Placed): { start: number; end: number; lines: Map<number, string> } {
  const lines = new Map<number, string>();
  let start = p.line;
  let end = p.line;
  const take = (first: number, texts: string[]) => {
    for (const [k, t] of texts.entries()) lines.set(first + k, t);
    if (texts.length > 0) {
      start = Math.min(start, first);
      end = Math.max(end, first + texts.length - 1);
    }
  };
  if (p.context) take(p.context.line, p.context.lines);
  if (p.body) take(p.body.line, p.body.text.split('\n'));
  return { start, end, lines };
}

export function withExcerpts(places: Placed[]): string {
  const out: string[] = [];
  let group: Group | undefined;
  // Bodies end with a line `--` each (the last too); context windows are only set apart by one, as in grep.
  const bodies = places.some((p) => p.body !== undefined);
  const flush = () => {
    if (!group) return;
    if (out.length > 0 && !bodies) out.push('--');
    for (let n = group.start; n <= group.end; n++) {
      const own = group.own.get(n);
      const text = group.lines.get(n);
      // A line no window holds (past a cut body) is not guessed at.
      if (own) out.push(...own);
      else if (text !== undefined) out.push(`${group.path}-${n}-${text}`);
    }
    if (bodies) out.push('--');
    group = undefined;
  };
  for (const p of places) {
    const w = windowOf(p);
    const joins = group && group.path === p.path && w.start <= group.end + 1 && p.line >= group.last;
    if (!joins) flush();
    group ??= { path: p.path, start: w.start, end: w.end, last: p.line, own: new Map(), lines: new Map() };
    group.end = Math.max(group.end, w.end);
    group.last = p.line;
    group.own.set(p.line, [...(group.own.get(p.line) ?? []), p.text]);
    for (const [n, t] of w.lines) if (!group.lines.has(n)) group.lines.set(n, t);
  }
  flush();
  return out.length ? `${out.join('\n')}\n` : '';
}

/** Whether any place carries code to show: otherwise the plain lines are the answer. */
export function hasExcerpts(places: { context?: Context; body?: Body | null }[]): boolean {
  return places.some((p) => p.context !== undefined || p.body !== undefined);
}

/** The note for bodies cut at --max-lines: how many lines each left out. */
export function cutBodies(places: Placed[]): string | undefined {
  const notes = places.flatMap((p) => {
    if (!p.body?.truncated) return [];
    const left = p.body.endLine - p.body.line + 1 - p.body.text.split('\n').length;
    return [`${left} more line${left === 1 ? '' : 's'} of the body at ${p.path}:${p.line}`];
  });
  return notes.length ? `${notes.join(', ')} not shown; raise --max-lines to see them` : undefined;
}

/** The answer's lines: plain, or with their excerpts where the question asked for code. */
export function placedLines(places: Placed[]): string {
  if (hasExcerpts(places)) return withExcerpts(places);
  return places.length ? `${places.map((p) => p.text).join('\n')}\n` : '';
}
