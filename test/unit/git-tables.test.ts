/**
 * The option tables against git's own parse-options: `git CMD
 * --git-completion-helper-all` prints every long option it knows (hidden
 * ones too), its `--no-` forms and a `=` for those that need a value; `git
 * CMD -h` pairs the short letters with them. The tables are git 2.39's, so
 * this runs where that is the git on PATH.
 */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OptionSpec } from '../../src/git/grammar';
import { OPTIONS } from '../../src/git/tables';

const dir = mkdtempSync(join(tmpdir(), 'lspq-tables-'));
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: dir, LC_ALL: 'C' };
const git = (...args: string[]): string => {
  const r = Bun.spawnSync(['git', ...args], { cwd: dir, env, stdin: 'ignore' });
  return r.stdout.toString() + r.stderr.toString();
};
git('init', '-q');
const version = /git version (\d+\.\d+)/.exec(git('--version'))?.[1];

/** `git remote` alone lists its subcommands as options; its table is only -v. */
const CHECKED = Object.keys(OPTIONS).filter((key) => key !== 'remote');

/** Options that take their value through a low-level callback: they need one, but the helper prints no `=`. */
const LOW_LEVEL: Record<string, string[]> = { merge: ['file'] };

/** What the completion helper would print for a table: long names, `=` for a required value, and the `--no-` forms. */
function helperWords(key: string, specs: readonly OptionSpec[]): { names: string[]; required: string[] } {
  const names: string[] = [];
  const required: string[] = [];
  for (const s of specs) {
    if (!s.long) continue;
    names.push(s.long);
    if (s.arity === 'required' && !LOW_LEVEL[key]?.includes(s.long)) required.push(s.long);
    if (s.negatable) names.push(s.long.startsWith('no-') ? s.long.slice(3) : `no-${s.long}`);
  }
  return { names: [...new Set(names)].sort(), required: required.sort() };
}

function gitWords(key: string): { names: string[]; required: string[] } {
  const words = git(...key.split(' '), '--git-completion-helper-all')
    .split(/\s+/)
    .filter((w) => w.startsWith('--') && w !== '--');
  return {
    names: [...new Set(words.map((w) => w.slice(2).replace(/=$/, '')))].sort(),
    required: words
      .filter((w) => w.endsWith('='))
      .map((w) => w.slice(2, -1))
      .sort(),
  };
}

/** `-h` lines: `    -n, --dry-run  ...`, `    -D  ...`, `    -b <branch>`, `    -n[<n>]`, `    --track[=...]`. */
function helpLines(key: string): Array<{ short?: string; long?: string; arity: 'none' | 'value' | 'optional' }> {
  const out: Array<{ short?: string; long?: string; arity: 'none' | 'value' | 'optional' }> = [];
  for (const line of git(...key.split(' '), '-h').split('\n')) {
    const m = /^ {4}(?:-([^-\s]))?(\[<[^>]*>\])?(?:, )?(?:--([a-z0-9-]+))?(\[=[^\]]*\])?( [<(])?/.exec(line);
    if (!m || (!m[1] && !m[3])) continue;
    const [, short, shortOptional, long, longOptional, value] = m;
    out.push({
      ...(short ? { short } : {}),
      ...(long ? { long } : {}),
      arity: shortOptional || longOptional ? 'optional' : value ? 'value' : 'none',
    });
  }
  return out;
}

describe.skipIf(version !== '2.39')(`option tables match git ${version}'s parse-options`, () => {
  for (const key of CHECKED) {
    const specs = OPTIONS[key]?.specs ?? [];
    test(`${key}: long options, --no- forms and required values`, () => {
      expect(helperWords(key, specs)).toEqual(gitWords(key));
    });
    test(`${key}: short letters and their long names and values`, () => {
      for (const line of helpLines(key)) {
        if (!line.short) continue;
        const spec = specs.find((s) => s.short === line.short);
        expect({ letter: line.short, long: spec?.long }).toEqual({ letter: line.short, long: line.long });
        const arity = spec?.arity === 'optional' ? 'optional' : spec?.arity === 'none' ? 'none' : 'value';
        expect({ letter: line.short, arity }).toEqual({ letter: line.short, arity: line.arity });
      }
    });
    test(`${key}: values that are only attached`, () => {
      for (const line of helpLines(key)) {
        const spec = specs.find((s) => line.long !== undefined && s.long === line.long);
        if (!spec || line.arity !== 'optional') continue;
        expect({ long: spec.long, arity: spec.arity }).toEqual({ long: line.long, arity: 'optional' });
      }
    });
  }
});

test('the temporary repository goes', () => {
  rmSync(dir, { recursive: true, force: true });
});
