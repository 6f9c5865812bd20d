/**
 * A file's own indentation, detected as editors detect it: tabs or spaces
 * by which starts more indented lines, and the width by the most common
 * step between one line's indentation and the next. Pure.
 */

export interface Indentation {
  insertSpaces: boolean;
  tabSize: number;
}

/** The indentation the file uses, or undefined when it has too few indented lines to say. */
export function detectIndentation(text: string): Indentation | undefined {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const lead = line.slice(0, line.length - line.replace(/^[ \t]+/, '').length);
    if (lead.startsWith('\t')) tabs++;
    else if (lead.length > 0) spaces++;
    if (!lead.includes('\t')) {
      const step = Math.abs(lead.length - previous);
      // A step of 1 is a doc comment's ` *`, not an indent.
      if (step >= 2 && step <= 8) steps.set(step, (steps.get(step) ?? 0) + 1);
      previous = lead.length;
    }
  }
  if (tabs + spaces < 2) return undefined;
  if (tabs > spaces) return { insertSpaces: false, tabSize: 4 };
  const width = [...steps].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
  return { insertSpaces: true, tabSize: width ?? 4 };
}
