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
  /** FILE:LINE:TEXT with the marker in it: the place of the marker where TEXT stands on the line (`--nth K` the K-th). */
  | { kind: 'pattern'; path: string; line: number; before: string; after: string; nth: number }
  | { kind: 'symbol'; name: string };

/** A target written as a place in a file (all but --symbol). */
export type FileTarget = Exclude<TargetSpec, { kind: 'symbol' }>;

/** The place in a text pattern (lsp-cli's marker): `sumAreas(<|>shapes)`. */
export const MARKER = '<|>';

export type LineSpec = { path: string; startLine: number; endLine: number };

const POSITION = /^(.+):(\d+):(\d+)$/;
/** A line lspq printed, `path:line:col: text`, fed back whole: its place. */
const PRINTED = /^(.+?):(\d+):(\d+): /s;
const PATTERN = /^(.+?):(\d+):(.*<\|>.*)$/s;
const NAME = /^(.+):(\d+):([^:\s]+)$/;
const LINE = /^(.+):(\d+)$/;
const LINE_RANGE = /^(.+):(\d+)(?:-(\d+))?$/;

function absolute(cwd: string, file: string): string {
  return resolvePath(cwd, file);
}

/** What a target may be, said with every error about how one is written. */
const FORMS =
  "a target is FILE:LINE:COL, FILE:LINE:NAME, FILE:LINE or 'FILE:LINE:TEXT<|>TEXT', lines and columns counted from 1, or --symbol NAME";
const LINE_FORMS = 'a line target is FILE:LINE or FILE:START-END, lines counted from 1';

/** Whether a path names a file: handed in by the caller, so the parsing stays pure. */
export type IsFile = (path: string) => boolean;

/** Why a line's or column's text is no place: not a whole number, or under 1; undefined when it is one. */
function badNumber(text: string, what: string, raw: string, forms: string): string | undefined {
  if (/^-\d+$/.test(text) || /^0+$/.test(text)) return `${what} in '${raw}' is ${text}; ${forms}`;
  if (!/^\d+$/.test(text)) return `${what} in '${raw}' is '${text}', not a number; ${forms}`;
  const n = Number(text);
  if (!Number.isSafeInteger(n)) return `${what} in '${raw}' is ${text}, past the end of any file; ${forms}`;
  return undefined;
}

function positive(text: string, what: string, raw: string, forms = FORMS): number {
  const bad = badNumber(text, what, raw, forms);
  if (bad) throw usage(bad);
  return Number(text);
}

/**
 * A target whose FILE is there but whose line or column is not a number
 * or under 1 (`main.go:x:1`, `main.go:-1:1`): the one line that names the
 * bad part. FILE ends at a colon; the longest FILE that is a file is
 * taken, as a path may hold colons itself.
 */
function badPlace(raw: string, cwd: string, isFile: IsFile, forms: string): string | undefined {
  for (let at = raw.lastIndexOf(':'); at > 0; at = raw.lastIndexOf(':', at - 1)) {
    if (!isFile(absolute(cwd, raw.slice(0, at)))) continue;
    const [line = '', column] = raw.slice(at + 1).split(':');
    // FILE:START-END names lines: its end is read as a line too.
    const [start = '', end] = forms === LINE_FORMS ? line.split('-') : [line];
    const bad =
      badNumber(start, 'the line', raw, forms) ??
      (end !== undefined ? badNumber(end, 'the end line', raw, forms) : undefined) ??
      // A column, if it is written as a number: a NAME or a pattern is found against the line's text.
      (column !== undefined && /^[-+]?\d/.test(column) ? badNumber(column, 'the column', raw, forms) : undefined);
    return bad;
  }
  return undefined;
}

/**
 * The target as read, checked against the disk where `isFile` is given: a
 * reading whose FILE is not there, beside a FILE that is (followed by a bad
 * line or column), is that bad part named.
 */
function checked<T extends { path: string }>(
  read: () => T,
  raw: string,
  cwd: string,
  isFile: IsFile | undefined,
  forms: string,
): T {
  let spec: T | undefined;
  let failure: unknown;
  try {
    spec = read();
  } catch (err) {
    failure = err;
  }
  if (isFile && !(spec && isFile(spec.path))) {
    const bad = badPlace(raw, cwd, isFile, forms);
    if (bad) throw usage(bad);
  }
  if (spec) return spec;
  throw failure;
}

/** Whether a target names a place (a position, a name, a pattern, a printed line) rather than lines (FILE:LINE, FILE:START-END). */
export function namesPlace(raw: string): boolean {
  return /:\d+:[^:\s]+$/.test(raw) || PRINTED.test(raw) || raw.includes(MARKER);
}

/** A text pattern's two sides of the marker; one marker, and some text besides it. */
function patternSides(text: string, raw: string): { before: string; after: string } {
  const at = text.indexOf(MARKER);
  const before = text.slice(0, at);
  const after = text.slice(at + MARKER.length);
  if (after.includes(MARKER))
    throw usage(`'${raw}' has the marker ${MARKER} more than once: write it once, where the place is`);
  if (!(before + after).trim())
    throw usage(`'${raw}' has only the marker: write the text around the place, e.g. src/app.ts:12:render(<|>view)`);
  return { before, after };
}

/**
 * `FILE:LINE:COL`, `FILE:LINE:NAME`, `FILE:LINE`, `FILE:LINE:TEXT<|>TEXT`,
 * or a line lspq printed (`path:line:col: text`); `--symbol` is handled by
 * the caller. With `isFile`, a FILE that is there followed by a bad line or
 * column is said so, not read as a path holding a colon.
 */
export function parseTarget(raw: string, cwd: string, nth = 1, isFile?: IsFile): FileTarget {
  return checked(() => readTarget(raw, cwd, nth), raw, cwd, isFile, FORMS);
}

function readTarget(raw: string, cwd: string, nth: number): FileTarget {
  const found = matchTarget(raw);
  if (found?.kind === 'position') {
    const [, , line = '', column = ''] = found.groups;
    return {
      kind: 'position',
      path: absolute(cwd, found.file),
      line: positive(line, 'the line', raw),
      column: positive(column, 'the column', raw),
    };
  }
  if (found?.kind === 'pattern') {
    const [, , line = '', sides = ''] = found.groups;
    return {
      kind: 'pattern',
      path: absolute(cwd, found.file),
      line: positive(line, 'the line', raw),
      ...patternSides(sides, raw),
      nth: positive(String(nth), '--nth', raw),
    };
  }
  if (found?.kind === 'name') {
    const [, , line = '', name = ''] = found.groups;
    // No name starts with a digit or a sign before one: `-1`, `1.5` and `0x` are a column written wrong.
    const bad = /^[-+]?\d/.test(name) ? badNumber(name, 'the column', raw, FORMS) : undefined;
    if (bad) throw usage(bad);
    return {
      kind: 'name',
      path: absolute(cwd, found.file),
      line: positive(line, 'the line', raw),
      name,
      nth: positive(String(nth), '--nth', raw),
    };
  }
  if (found?.kind === 'line') {
    const [, , line = ''] = found.groups;
    return { kind: 'line', path: absolute(cwd, found.file), line: positive(line, 'the line', raw) };
  }
  throw usage(
    `'${raw}' is not a target: write FILE:LINE:COL, FILE:LINE:NAME, FILE:LINE or FILE:LINE:TEXT<|>TEXT (for example src/app.ts:12:5, src/app.ts:12:render or 'src/app.ts:12:render(<|>view)'), or use --symbol NAME`,
  );
}

/** Which form a target has and its groups, FILE first: the one reading parseTarget and targetPath share. */
function matchTarget(
  raw: string,
): { kind: 'position' | 'pattern' | 'name' | 'line'; file: string; groups: RegExpExecArray } | undefined {
  // Each pattern's groups are all required: a match has every one.
  const forms = [
    ['position', POSITION.exec(raw) ?? PRINTED.exec(raw)],
    ['pattern', PATTERN.exec(raw)],
    ['name', NAME.exec(raw)],
    ['line', LINE.exec(raw)],
  ] as const;
  for (const [kind, groups] of forms) if (groups) return { kind, file: groups[1] ?? '', groups };
  return undefined;
}

/** `calls --to`'s value: a target where it has a line number after a colon, else a symbol's name. */
export function parseTargetOrName(value: string, cwd: string, isFile?: IsFile): TargetSpec {
  return namesLine(value) ? parseTarget(value, cwd, 1, isFile) : { kind: 'symbol', name: value };
}

/** Whether `calls --to`'s value is a target (a line number after a colon) rather than a symbol's name. */
export const namesLine = (value: string) => /:\d+(:|$)/.test(value);

/**
 * The file a target names, as written, found by the reading the commands
 * parse it with (a place as parseTarget reads it, lines as parseLineTarget
 * does, as actions chooses): what an MCP server checks is what the command
 * will open. A second, simpler reading let `app.ts:1:/../../outside/use.ts:2:twice`
 * pass as app.ts while the command read ../outside/use.ts. Undefined where
 * it is no target (the command refuses it before reading anything).
 */
export function targetPath(raw: string): string | undefined {
  return namesPlace(raw) ? matchTarget(raw)?.file : LINE_RANGE.exec(raw)?.[1];
}

/** `FILE:LINE` or `FILE:START-END` (actions, fmt --range). */
export function parseLineTarget(raw: string, cwd: string, isFile?: IsFile): LineSpec {
  return checked(() => readLineTarget(raw, cwd), raw, cwd, isFile, LINE_FORMS);
}

function readLineTarget(raw: string, cwd: string): LineSpec {
  const [, file, start, end] = LINE_RANGE.exec(raw) ?? [];
  if (file === undefined || start === undefined)
    throw usage(`'${raw}' is not a line target: write FILE:LINE or FILE:START-END`);
  const startLine = positive(start, 'the line', raw, LINE_FORMS);
  const endLine = end ? positive(end, 'the end line', raw, LINE_FORMS) : startLine;
  if (endLine < startLine)
    throw usage(`the range in '${raw}' ends before it starts: write FILE:START-END with START <= END`);
  return { path: absolute(cwd, file), startLine, endLine };
}

/**
 * Where a pattern's marker stands on a line, each place the text around it
 * is written there (a run of spaces or tabs in the pattern matches any such
 * run), as 0-based code-point columns.
 */
export function findPattern(line: string, before: string, after: string): number[] {
  const literal = (s: string) =>
    s
      .split(/\s+/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+');
  const found = new RegExp(`${literal(before)}(?=${literal(after)})`, 'gu');
  const hits: number[] = [];
  for (let m = found.exec(line); m !== null; m = found.exec(line)) {
    hits.push(Array.from(line.slice(0, m.index + m[0].length)).length);
    // Overlapping places count too (`a<|>a` on `aaa`): look again one character on.
    found.lastIndex = m.index + 1;
  }
  return hits;
}

/** Whole-word occurrences of `name` in `line`, as 0-based code-point columns. */
export function findWord(line: string, name: string): number[] {
  const hits: number[] = [];
  if (name === '') return hits;
  const wordy = isWord(String.fromCodePoint(name.codePointAt(0) ?? 0));
  // By indexOf and a running count of code points: splitting an 8 MB line into characters cost 850 ms.
  let column = 0;
  let counted = 0;
  for (let at = line.indexOf(name); at >= 0; at = line.indexOf(name, at + 1)) {
    column += codePoints(line, counted, at);
    counted = at;
    const end = at + name.length;
    if (wordy && (isWord(charBefore(line, at)) || isWord(charAt(line, end)))) continue;
    hits.push(column);
  }
  return hits;
}

/** The code points of `line` from UTF-16 unit `from` to `to`. */
function codePoints(line: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const unit = line.charCodeAt(i);
    // The second half of a surrogate pair is no character of its own.
    if (!(unit >= 0xdc00 && unit <= 0xdfff && i > 0 && isHigh(line.charCodeAt(i - 1)))) n++;
  }
  return n;
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

/** The character (code point) that ends just before unit `at`. */
function charBefore(line: string, at: number): string | undefined {
  if (at === 0) return undefined;
  const from = at >= 2 && isHigh(line.charCodeAt(at - 2)) ? at - 2 : at - 1;
  return line.slice(from, at);
}

/** The character (code point) that starts at unit `at`. */
function charAt(line: string, at: number): string | undefined {
  const point = line.codePointAt(at);
  return point === undefined ? undefined : String.fromCodePoint(point);
}
