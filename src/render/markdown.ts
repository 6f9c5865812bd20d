/**
 * Documentation markdown as servers write it (hover), made fit to read: HTML
 * entities decoded (pyright indents with `&nbsp;`), blanks at line ends cut,
 * runs of blank lines made one, and rules, headings and code blocks with
 * nothing in them dropped. Code is kept exactly: a fenced block's lines and
 * an inline code span are never touched. Pure.
 */

/** Entities written for spacing are plain spaces to a reader; the others are their characters. */
const ENTITIES: Record<string, string> = {
  nbsp: ' ',
  ensp: ' ',
  emsp: ' ',
  thinsp: ' ',
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      if (code === 0xa0) return ' ';
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** A line's prose decoded, its inline code spans (a run of backticks to the next run as long) as they are. */
function decodeOutsideCode(line: string): string {
  let out = '';
  let rest = line;
  for (let open = /`+/.exec(rest); open; open = /`+/.exec(rest)) {
    const ticks = open[0];
    const after = rest.slice(open.index + ticks.length);
    const close = new RegExp(`(?<!\`)${ticks}(?!\`)`).exec(after);
    if (!close) {
      // Backticks that close nothing are text.
      out += decodeEntities(rest.slice(0, open.index + ticks.length));
      rest = after;
      continue;
    }
    const end = open.index + ticks.length + close.index + ticks.length;
    out += decodeEntities(rest.slice(0, open.index)) + rest.slice(open.index, end);
    rest = rest.slice(end);
  }
  return out + decodeEntities(rest);
}

interface Block {
  kind: 'text' | 'blank' | 'rule' | 'code';
  lines: string[];
  /** A heading's level (1 for #). */
  level?: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const RULE = /^ {0,3}([-*_])( *\1){2,} *$/;
const HEADING = /^ {0,3}(#{1,6})(?:\s|$)/;

/** The lines as blocks: fenced code whole (its fence lines included), rules, blank lines and the rest, decoded. */
function blocks(lines: string[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      const mark = fence[1] ?? '```';
      const closing = new RegExp(`^ {0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},} *$`);
      let end = i + 1;
      while (end < lines.length && !closing.test(lines[end] ?? '')) end++;
      const body = lines.slice(i + 1, end);
      // A block with nothing between its fences says nothing; one never closed runs to the end.
      if (body.some((l) => l.trim() !== '')) out.push({ kind: 'code', lines: lines.slice(i, end + 1) });
      i = end;
      continue;
    }
    const prose = decodeOutsideCode(line).trimEnd();
    const previous = out.at(-1);
    // `---` under a line of text underlines a heading; after a blank, a block or nothing it is a rule.
    const rule = RULE.test(prose) && (prose.trim()[0] !== '-' || !previous || previous.kind !== 'text');
    if (prose.trim() === '') out.push({ kind: 'blank', lines: [''] });
    else if (rule) out.push({ kind: 'rule', lines: [prose.trim()] });
    else {
      const heading = HEADING.exec(prose);
      out.push({ kind: 'text', lines: [prose], ...(heading ? { level: heading[1]?.length ?? 1 } : {}) });
    }
  }
  return out;
}

/** Whether a heading's section holds nothing: what follows it, blanks aside, is the end, a rule or a heading as high. */
function emptySection(list: Block[], at: number, level: number): boolean {
  for (let i = at + 1; i < list.length; i++) {
    const b = list[i];
    if (!b || b.kind === 'blank') continue;
    return b.kind === 'rule' || (b.level !== undefined && b.level <= level);
  }
  return true;
}

export function cleanMarkdown(text: string): string {
  const list = blocks(text.replace(/\r\n?/g, '\n').split('\n'));
  // Headings whose sections are empty, the last first: a section that held only those is empty in turn.
  for (let i = list.length - 1; i >= 0; i--) {
    const level = list[i]?.level;
    if (level !== undefined && emptySection(list, i, level)) list.splice(i, 1);
  }
  // A rule separates two things: none at the start or end, none beside another.
  const kept: Block[] = [];
  for (const b of list) {
    const last = kept.findLast((k) => k.kind !== 'blank');
    if (b.kind === 'rule' && (!last || last.kind === 'rule')) continue;
    if (b.kind === 'blank' && (kept.length === 0 || kept.at(-1)?.kind === 'blank')) continue;
    kept.push(b);
  }
  while (kept.at(-1)?.kind === 'blank' || kept.at(-1)?.kind === 'rule') kept.pop();
  return kept.flatMap((b) => b.lines).join('\n');
}
