/**
 * Targets as the command line spells them, parsed without touching the disk.
 * Lines and columns stay 1-based code points here; the daemon converts them
 * to the server's position encoding against the file's current text.
 */
import { isIdentifierChar as isWord } from './identifiers';
import { usage } from './errors';
import { resolvePath } from './paths';

export type TargetSpec =
  | { kind: 'position'; path: string; line: number; column: number }
  | { kind: 'name'; path: string; line: number; name: string; nth: number }
  /** FILE:LINE: the one name the line holds in code (several are an error listing them). */
  | { kind: 'line'; path: string; line: number }
  | { kind: 'symbol'; name: string };

export type LineSpec = { path: string; startLine: number; endLine: number };

const POSITION = /^(.+):(\d+):(\d+)$/;
const NAME = /^(.+):(\d+):([^:\s]+)$/;
const LINE = /^(.+):(\d+)$/;
const LINE_RANGE = /^(.+):(\d+)(?:-(\d+))?$/;

function absolute(cwd: string, file: string): string {
  return resolvePath(cwd, file);
}

function positive(text: string, what: string, raw: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1)
    throw usage(`${what} in '${raw}' must be 1 or more (lines and columns count from 1)`);
  return n;
}

/** `FILE:LINE:COL`, `FILE:LINE:NAME` or `FILE:LINE`; `--symbol` is handled by the caller. */
export function parseTarget(raw: string, cwd: string, nth = 1): TargetSpec {
  const pos = POSITION.exec(raw);
  if (pos) {
    return {
      kind: 'position',
      path: absolute(cwd, pos[1]!),
      line: positive(pos[2]!, 'the line', raw),
      column: positive(pos[3]!, 'the column', raw),
    };
  }
  const named = NAME.exec(raw);
  if (named) {
    return {
      kind: 'name',
      path: absolute(cwd, named[1]!),
      line: positive(named[2]!, 'the line', raw),
      name: named[3]!,
      nth: positive(String(nth), '--nth', raw),
    };
  }
  const line = LINE.exec(raw);
  if (line) return { kind: 'line', path: absolute(cwd, line[1]!), line: positive(line[2]!, 'the line', raw) };
  throw usage(
    `'${raw}' is not a target: write FILE:LINE:COL, FILE:LINE:NAME or FILE:LINE (for example src/app.ts:12:5 or src/app.ts:12:render), or use --symbol NAME`,
  );
}

/** `FILE:LINE` or `FILE:START-END` (actions, fmt --range). */
export function parseLineTarget(raw: string, cwd: string): LineSpec {
  const m = LINE_RANGE.exec(raw);
  if (!m) throw usage(`'${raw}' is not a line target: write FILE:LINE or FILE:START-END`);
  const startLine = positive(m[2]!, 'the line', raw);
  const endLine = m[3] ? positive(m[3], 'the end line', raw) : startLine;
  if (endLine < startLine)
    throw usage(`the range in '${raw}' ends before it starts: write FILE:START-END with START <= END`);
  return { path: absolute(cwd, m[1]!), startLine, endLine };
}

/** Whole-word occurrences of `name` in `line`, as 0-based code-point columns. */
export function findWord(line: string, name: string): number[] {
  const chars = Array.from(line);
  const target = Array.from(name);
  const hits: number[] = [];
  for (let i = 0; i + target.length <= chars.length; i++) {
    let match = true;
    for (let j = 0; j < target.length; j++) {
      if (chars[i + j] !== target[j]) {
        match = false;
        break;
      }
    }
    if (!match) continue;
    const wordy = isWord(target[0]);
    if (wordy && (isWord(chars[i - 1]) || isWord(chars[i + target.length]))) continue;
    hits.push(i);
  }
  return hits;
}
