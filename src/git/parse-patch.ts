/**
 * Hunk headers of a `git diff -p` patch, keyed by the path each file
 * section is about. Header paths are C-quoted by git when they hold
 * special bytes; the path is read from `rename to`, `+++` or the
 * `diff --git` line, whichever the section has. Pure.
 */

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  header: string;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A C-quoted string at the start of `text` ("a\tb", octal bytes), and what follows it. */
export function unquote(text: string): { value: string; rest: string } {
  if (!text.startsWith('"')) return { value: text, rest: '' };
  const bytes: number[] = [];
  let i = 1;
  for (; i < text.length && text[i] !== '"'; i++) {
    const c = text[i] as string;
    if (c !== '\\') {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const next = text[++i] as string;
    const octal = /^[0-7]{3}/.exec(text.slice(i, i + 3));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 2;
    } else bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
  }
  return { value: new TextDecoder().decode(new Uint8Array(bytes)), rest: text.slice(i + 1) };
}

const stripPrefix = (path: string, prefix: string): string =>
  path.startsWith(prefix) ? path.slice(prefix.length) : path;

/** `+++ b/path` (git adds a tab after names with spaces, for patch(1)). */
function labelPath(label: string, prefix: string): string | undefined {
  if (label === '/dev/null') return undefined;
  const path = label.startsWith('"') ? unquote(label).value : label.replace(/\t$/, '');
  return stripPrefix(path, prefix);
}

/** The new path of `diff --git a/X b/X`, for sections with no other header naming it (binary, mode-only). */
function gitHeaderPath(rest: string): string {
  if (rest.startsWith('"')) {
    const first = unquote(rest);
    const second = first.rest.trimStart();
    return stripPrefix(second.startsWith('"') ? unquote(second).value : second, 'b/');
  }
  const half = (rest.length - 5) / 2;
  if (Number.isInteger(half) && rest.slice(2 + half) === ` b/${rest.slice(2, 2 + half)}`)
    return rest.slice(2, 2 + half);
  const at = rest.lastIndexOf(' b/');
  return at >= 0 ? rest.slice(at + 3) : rest;
}

const HUNK = /^(@{2,}) ((?:-\d+(?:,\d+)? )+)\+(\d+)(?:,(\d+))? \1(?: |$)/;

export function parseHunkHeader(line: string): Hunk | undefined {
  const m = HUNK.exec(line);
  if (!m) return undefined;
  const [oldStart = '0', oldLines = '1'] = (/-(\d+)(?:,(\d+))?/.exec(m[2] as string) ?? [])
    .slice(1)
    .map((x) => x ?? '1');
  return {
    oldStart: Number(oldStart),
    oldLines: Number(oldLines),
    newStart: Number(m[3]),
    newLines: Number(m[4] ?? '1'),
    header: line,
  };
}

interface Section {
  path: string;
  hunks: Hunk[];
  inHeader: boolean;
}

export function hunksByPath(patch: string): Map<string, Hunk[]> {
  const sections: Section[] = [];
  let current: Section | undefined;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = { path: gitHeaderPath(line.slice(11)), hunks: [], inHeader: true };
      sections.push(current);
    } else if (line.startsWith('diff --cc ') || line.startsWith('diff --combined ')) {
      const rest = line.slice(line.indexOf(' ', 5) + 1);
      current = { path: unquote(rest).value, hunks: [], inHeader: true };
      sections.push(current);
    } else if (!current) {
      // Before the first file's header: nothing to attach the line to.
    } else if (line.startsWith('@@')) {
      current.inHeader = false;
      const hunk = parseHunkHeader(line);
      if (hunk) current.hunks.push(hunk);
    } else if (current.inHeader) {
      // Only header lines: a removed line "-- x" shows as "--- x" inside a hunk.
      if (line.startsWith('rename to ')) current.path = unquote(line.slice(10)).value;
      else if (line.startsWith('copy to ')) current.path = unquote(line.slice(8)).value;
      else if (line.startsWith('+++ ')) current.path = labelPath(line.slice(4), 'b/') ?? current.path;
    }
  }
  const out = new Map<string, Hunk[]>();
  for (const s of sections) out.set(s.path, [...(out.get(s.path) ?? []), ...s.hunks]);
  return out;
}
