/**
 * The diagnostics benchmark: `lspq diag --all` on a real project against the
 * language's own checker (tsc --noEmit, the pyright CLI, go vet), after the
 * same two errors are put into a scratch copy of each, and the time of a
 * warm `lspq diag FILE` against the checker's run. Prints markdown.
 */
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fmt, LSPQ, median, repeat, RUNS, table, timeCommand, toolsEnv } from './harness';
import { projects, REPO, WORK } from './projects';

interface Finding {
  file: string;
  line: number;
}

interface Case {
  lang: string;
  root: string;
  checker: string[];
  /** Errors as the checker reports them. */
  parse: (stdout: string, stderr: string) => Finding[];
  inject: { file: string; text: string }[];
  warmFile: string;
}

const key = (f: Finding) => `${f.file}:${f.line}`;

function scratchCopy(from: string, name: string): string {
  const to = join(WORK, `diag-${name}`);
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  return to;
}

function cases(): Case[] {
  const [, go, py] = projects();
  const ts = join(WORK, 'diag-lspq');
  rmSync(ts, { recursive: true, force: true });
  mkdirSync(ts, { recursive: true });
  for (const part of ['src', 'tsconfig.json', 'package.json'])
    cpSync(join(REPO, part), join(ts, part), { recursive: true });
  writeFileSync(
    join(ts, 'tsconfig.json'),
    readFileSync(join(REPO, 'tsconfig.json'), 'utf8').replace(
      '"include": ["src", "test", "bench", "scripts"]',
      '"include": ["src"]',
    ),
  );
  symlinkSync(join(REPO, 'node_modules'), join(ts, 'node_modules'));
  const goCopy = scratchCopy(go!.root, 'cobra');
  const pyCopy = scratchCopy(py!.root, 'requests');
  return [
    {
      lang: 'TypeScript (lspq)',
      root: ts,
      checker: [join(REPO, 'node_modules', '.bin', 'tsc'), '--noEmit', '-p', '.', '--pretty', 'false'],
      parse: (out) =>
        [...out.matchAll(/^(.+?)\((\d+),\d+\): error /gm)].map((m) => ({ file: m[1]!, line: Number(m[2]) })),
      inject: [
        { file: 'src/common/errors.ts', text: "\nexport const benchOne: number = 'one';\n" },
        { file: 'src/render/paths.ts', text: '\nexport const benchTwo: string = missingName;\n' },
      ],
      warmFile: 'src/common/errors.ts',
    },
    {
      lang: 'Python (requests)',
      root: pyCopy,
      checker: [join(REPO, '.tools', 'node_modules', '.bin', 'pyright'), '--outputjson'],
      parse: (out) => {
        const json = JSON.parse(out) as {
          generalDiagnostics: { file: string; severity: string; range: { start: { line: number } } }[];
        };
        return json.generalDiagnostics
          .filter((d) => d.severity === 'error')
          .map((d) => ({ file: relative(pyCopy, d.file), line: d.range.start.line + 1 }));
      },
      inject: [
        { file: 'src/requests/api.py', text: '\nbench_one: int = "one"\n' },
        { file: 'src/requests/hooks.py', text: '\nbench_two = missing_name + 1\n' },
      ],
      warmFile: 'src/requests/api.py',
    },
    {
      lang: 'Go (cobra)',
      root: goCopy,
      checker: ['go', 'vet', './...'],
      parse: (_out, err) =>
        [...err.matchAll(/^(?:\.\/)?([^\s:]+\.go):(\d+):\d+: /gm)].map((m) => ({ file: m[1]!, line: Number(m[2]) })),
      inject: [
        { file: 'args.go', text: '\nvar benchOne int = "one"\n' },
        { file: 'cobra.go', text: '\nvar benchTwo = missingName\n' },
      ],
      warmFile: 'args.go',
    },
  ];
}

async function main(): Promise<void> {
  const env = toolsEnv({ GOFLAGS: '-mod=mod' });
  const { benchEnv } = await import('./harness');
  const lspqEnv = { ...benchEnv, GOFLAGS: '-mod=mod' };
  const rows: (string | number)[][] = [];
  const timeRows: (string | number)[][] = [];
  for (const c of cases()) {
    for (const inj of c.inject) appendFileSync(join(c.root, inj.file), inj.text);
    const checkerRun = Bun.spawnSync(c.checker, { cwd: c.root, env, stdout: 'pipe', stderr: 'pipe' });
    const checker = c.parse(checkerRun.stdout.toString(), checkerRun.stderr.toString());
    const allCold = await timeCommand(
      [LSPQ, 'diag', '--all', '--json', '--timeout', '600', '--limit', '1000000'],
      c.root,
      lspqEnv,
    );
    const report = JSON.parse(allCold.stdout) as {
      diagnostics: { path: string; line: number; severity: string }[];
      files: string[];
      incomplete: string[];
    };
    const mine = report.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ file: d.path, line: d.line }));
    const theirs = new Set(checker.map(key));
    const common = mine.filter((f) => theirs.has(key(f))).length;
    const injectedLines = c.inject.map((inj) => ({
      file: inj.file,
      line: readFileSync(join(c.root, inj.file), 'utf8').trimEnd().split('\n').length,
    }));
    const foundInjected = (list: Finding[]) => injectedLines.filter((i) => list.some((f) => key(f) === key(i))).length;
    rows.push([
      c.lang,
      report.files.length,
      mine.length,
      checker.length,
      common,
      `${foundInjected(mine)}/2`,
      `${foundInjected(checker)}/2`,
      report.incomplete.length,
    ]);
    const checkerTimes = await repeat(3, async () => (await timeCommand(c.checker, c.root, env)).ms);
    await timeCommand([LSPQ, 'diag', c.warmFile], c.root, lspqEnv);
    const warm = await repeat(RUNS, async () => (await timeCommand([LSPQ, 'diag', c.warmFile], c.root, lspqEnv)).ms);
    timeRows.push([
      c.lang,
      `\`${c.checker.map((a) => a.split('/').pop()).join(' ')}\``,
      fmt(median(checkerTimes)),
      fmt(allCold.ms),
      fmt(median(warm)),
      `**${(median(checkerTimes) / median(warm)).toFixed(0)}x**`,
    ]);
    await timeCommand([LSPQ, 'daemon', 'stop'], c.root, lspqEnv);
  }
  console.log(
    [
      "### diag: the same errors as the language's checker\n",
      'Two errors were added to a scratch copy of each project; "errors" counts severity error only (go vet reports type errors and its analyzers\' findings alike).\n',
      table(
        [
          'project',
          'files checked',
          'lspq errors',
          'checker errors',
          'same file:line',
          'added errors found by lspq',
          'by the checker',
          'incomplete',
        ],
        rows,
      ),
      '\n### diag: time\n',
      table(
        [
          'project',
          'checker',
          'checker ms (whole project)',
          '`lspq diag --all` ms (cold daemon)',
          'warm `lspq diag FILE` ms',
          'checker / warm lspq',
        ],
        timeRows,
      ),
    ].join('\n'),
  );
}

await main();
