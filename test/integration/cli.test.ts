import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capture, exactPath, FIXTURES, Lspq, lspqArgv, REPO, scratchDir, toolsPath } from '../helpers/lspq';
import { anyhowAt, queryCoreAt } from '../helpers/published';

const lspq = new Lspq();
const go = join(FIXTURES, 'go-shapes');
const ts = join(FIXTURES, 'ts-shapes');

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
});

describe('bad input: one line, the fix, exit 2, no stack trace', () => {
  test.each([
    [['nope'], "lspq: unknown command 'nope'; run 'lspq --help' for the list\n"],
    [['defn'], "lspq: unknown command 'defn'; did you mean 'def'? run 'lspq --help' for the list\n"],
    [['help', 'defn'], "lspq: unknown command 'defn'; did you mean 'def'? run 'lspq --help' for the list\n"],
    [['hlp'], "lspq: unknown command 'hlp'; did you mean 'help'? run 'lspq --help' for the list\n"],
    [['sym', 'x'], "lspq: unknown command 'sym'; did you mean 'symbols'? run 'lspq --help' for the list\n"],
    [['def', 'main.go:7:TotalArea', '--bogus'], "lspq: unknown flag '--bogus' for 'lspq def'; see 'lspq def --help'\n"],
    [
      ['def', 'main.go:7:TotalArea', '--jsn'],
      "lspq: unknown flag '--jsn' for 'lspq def'; did you mean '--json'? see 'lspq def --help'\n",
    ],
    [
      ['refs', 'main.go:7:TotalArea', '--include-decl'],
      "lspq: unknown flag '--include-decl' for 'lspq refs'; did you mean '--include-declaration'? see 'lspq refs --help'\n",
    ],
    [
      ['def', 'main.go'],
      "lspq: 'main.go' is not a target: write FILE:LINE:COL, FILE:LINE:NAME, FILE:LINE or FILE:LINE:TEXT<|>TEXT (for example src/app.ts:12:5, src/app.ts:12:render or 'src/app.ts:12:render(<|>view)'), or use --symbol NAME\n",
    ],
    [['def'], 'lspq: missing TARGET: write FILE:LINE:COL, FILE:LINE:NAME or FILE:LINE, or use --symbol NAME\n'],
    [
      ['def', 'main.go:0:1'],
      "lspq: the line in 'main.go:0:1' is 0; a target is FILE:LINE:COL, FILE:LINE:NAME, FILE:LINE or 'FILE:LINE:TEXT<|>TEXT', lines and columns counted from 1, or --symbol NAME\n",
    ],
    [['def', 'main.go:99:1'], 'lspq: line 99 is outside main.go, which has 8 lines\n'],
    [['def', 'main.go:7:200'], 'lspq: column 200 is past the end of line 7 of main.go (55 characters)\n'],
    [
      ['def', 'main.go:7:Nowhere'],
      `lspq: 'Nowhere' is not on line 7 of main.go: 名前 := "🎉 图形"; fmt.Println(名前, TotalArea(shapes, "cm")); nearest: main.go:6:Shape, main.go:6:Square, main.go:7:TotalArea, main.go:7:shapes, main.go:6:shapes\n`,
    ],
    [
      ['def', 'main.go:7:TotalArea', '--nth', '2'],
      "lspq: line 7 of main.go has 1 occurrence(s) of 'TotalArea' in code, not 2; lower --nth\n",
    ],
    [
      ['def', 'missing.go:1:1'],
      `lspq: ${go}/missing.go does not exist; check the path (relative paths are from the current directory)\n`,
    ],
    [
      ['def', 'main.go:7:TotalArea', '--limit', 'all'],
      "lspq: --limit takes a whole number (0 for no limit), not 'all'\n",
    ],
    [['def', 'main.go:7:TotalArea', '--timeout', 'soon'], "lspq: --timeout takes seconds greater than 0, not 'soon'\n"],
    [
      ['symbols', 'main.go', '--kind', 'gizmo'],
      expect.stringContaining("lspq: unknown symbol kind 'gizmo'; kinds are: file, module"),
    ],
    [
      ['def', '--symbol', 'NoSuchThing'],
      "lspq: no symbol named 'NoSuchThing' in the workspace; 'lspq symbols -w NoSuchThing' lists similar names\n",
    ],
  ] as const)('%p', async (args, stderr) => {
    const r = await lspq.run([...args], { cwd: go });
    expect(r.stderr).toEqual(stderr);
    expect(r.stdout).toBe('');
    expect(r.exit).toBe(2);
  });

  test('with --json the error is also a JSON document on stdout', async () => {
    const r = await lspq.run(['def', 'main.go:99:1', '--json'], { cwd: go });
    expect(JSON.parse(r.stdout)).toEqual({
      error: { code: 'bad_position', message: 'line 99 is outside main.go, which has 8 lines' },
    });
    expect(r.exit).toBe(2);
  });
});

describe('every command loads from the binary', () => {
  // The usage renderer and the command half are bundles of their own (src/bundles.ts):
  // a missing one would only show when a command needs it.
  test.each([
    ['def', 'definition(s) of the symbol at TARGET (lspq def)', '  $ lspq def --symbol Circle.Area'],
    ['symbols', 'USAGE lspq symbols [OPTIONS] [INPUT]', '  $ lspq symbols -w total'],
    [
      'diag',
      'diagnostics for files, --staged changes or --all the workspace (lspq diag)',
      '  $ lspq diag --staged --fail-on warning',
    ],
    ['servers', 'USAGE lspq servers [OPTIONS] ', '  $ lspq servers --json'],
    ['daemon', 'USAGE lspq daemon [OPTIONS] [ACTION]', '  $ lspq daemon logs'],
  ])('lspq %s --help: flags, then examples', async (name, line, example) => {
    const r = await lspq.run([name, '--help'], { cwd: go });
    expect(r.stderr).toBe('');
    expect(r.exit).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain(line);
    expect(lines.indexOf(example)).toBeGreaterThan(lines.indexOf('EXAMPLES'));
    expect(lines.indexOf('EXAMPLES')).toBeGreaterThan(lines.indexOf('OPTIONS'));
  });

  test.each([['def'], ['symbols'], ['git'], ['batch']])(
    "lspq help %s is the command's own help, as --help gives it",
    async (name) => {
      const asked = await lspq.run(['help', name], { cwd: go });
      const flag = await lspq.run([name, '--help'], { cwd: go });
      expect(asked).toEqual({ ...flag, exit: 0 });
      expect(asked.stdout).toMatch(new RegExp(`^(USAGE|Usage:) lspq ${name} `, 'm'));
    },
  );

  test('lspq help alone and lspq help agents are the general pages', async () => {
    const general = await lspq.run(['help'], { cwd: go });
    expect([general.stdout.split('\n')[2], general.exit]).toEqual([
      'Usage: lspq COMMAND [ARGS] [--json] [--root DIR] [--server ID] [--timeout S] [--limit N] [--no-daemon]',
      0,
    ]);
    expect((await lspq.run(['help', 'agents'], { cwd: go })).stdout).toStartWith('# lspq for agents');
  });

  test('lspq git answers through its own entry point', async () => {
    const r = await lspq.run(['git', 'rev-parse', '--is-inside-work-tree'], { cwd: go });
    expect(r.exit).toBe(0);
    expect(r.stdout).toBe('true\n');
  });
});

describe('no server: exit 3 with what to do', () => {
  test('an extension no server handles', async () => {
    const r = await lspq.run(['hover', `${FIXTURES}/c-shapes/compile_flags.txt:1:1`]);
    expect(r.exit).toBe(3);
    expect(r.stderr).toStartWith(
      `lspq: no language server is configured for ${FIXTURES}/c-shapes/compile_flags.txt; known extensions: `,
    );
    expect(r.stderr).toContain(' .go ');
  });
});

describe('answers and their shapes', () => {
  test('--nth picks the K-th occurrence on the line', async () => {
    const r = await lspq.run(['def', 'main.go:7:名前', '--nth', '2'], { cwd: go });
    expect(r.stdout).toBe('main.go:7:2: 名前 := "🎉 图形"; fmt.Println(名前, TotalArea(shapes, "cm"))\n');
  });

  test('def --json: the contract fields, plus root', async () => {
    expect(await lspq.json(['def', 'main.go:7:TotalArea'], { cwd: go })).toEqual({
      target: { path: 'main.go', line: 7, column: 32, symbol: 'TotalArea' },
      server: 'gopls',
      root: go,
      locations: [
        {
          path: 'geometry.go',
          line: 17,
          column: 6,
          endLine: 17,
          endColumn: 15,
          preview: 'func TotalArea(shapes []Shape, unit Unit) string {',
        },
      ],
      total: 1,
      truncated: false,
      source: 'server',
    });
  });

  test("--limit cuts locations and says so on stdout's last line too; --limit 0 lists all", async () => {
    const json = await lspq.json(['refs', 'shape.go:4:Shape', '--limit', '2'], { cwd: go });
    expect(json).toMatchObject({ total: 4, truncated: true });
    expect((json.locations as unknown[]).length).toBe(2);
    const refs = [
      'geometry.go:5:19: func areaOf(shape Shape) float64 {  (in areaOf)',
      'geometry.go:9:24: func sumAreas(shapes []Shape) float64 {  (in sumAreas)',
      'geometry.go:17:25: func TotalArea(shapes []Shape, unit Unit) string {  (in TotalArea)',
      'main.go:6:14: shapes := []Shape{Circle{Radius: 1}, Square{Side: 2}}  (in main)',
    ];
    // Tools that drop stderr still read the cut; for a script (stderr a pipe) the warning is a plain line too.
    expect(await lspq.run(['refs', 'shape.go:4:Shape', '--limit', '2'], { cwd: go })).toEqual({
      stdout: `${refs.slice(0, 2).join('\n')}\n2 of 4 shown: --limit 0 for all\n`,
      stderr: 'lspq: warning: 2 of 4 shown: --limit 0 for all\n',
      exit: 0,
    });
    expect(await lspq.run(['refs', 'shape.go:4:Shape', '--limit', '0'], { cwd: go })).toEqual({
      stdout: `${refs.join('\n')}\n`,
      stderr: '',
      exit: 0,
    });
    expect(await lspq.json(['refs', 'shape.go:4:Shape', '--limit', '0'], { cwd: go })).toMatchObject({
      total: 4,
      truncated: false,
    });
  });

  test('every command with --limit ends a cut answer with the same line', async () => {
    const last = async (args: string[], cwd = go) => {
      const r = await lspq.run(args, { cwd });
      return [r.stdout.trimEnd().split('\n').at(-1), r.exit];
    };
    expect(await last(['impls', 'shape.go:4:Shape', '--limit', '1'])).toEqual(['1 of 2 shown: --limit 0 for all', 0]);
    expect(await last(['symbols', 'geometry.go', '--limit', '2'])).toEqual(['2 of 3 shown: --limit 0 for all', 0]);
    // The project's 9 matches of gopls's 100; with --deps, all of them.
    expect(await last(['symbols', '-w', 'Area', '--limit', '2'])).toEqual(['2 of 9 shown: --limit 0 for all', 0]);
    expect(await last(['symbols', '-w', 'Area', '--deps', '--limit', '2'])).toEqual([
      '2 of 100 shown: --limit 0 for all',
      0,
    ]);
    expect(await last(['calls', 'main.go:5:main', '--out', '--limit', '1'])).toEqual([
      '1 of 2 shown: --limit 0 for all',
      0,
    ]);
    // diag: the last line on stdout, its counts on stderr, exit 1 for the errors.
    expect(await last(['diag', 'py-diag/broken.py', '--limit', '1'], FIXTURES)).toEqual([
      '1 of 5 shown: --limit 0 for all',
      1,
    ]);
    const diag = await lspq.json(['diag', 'py-diag/broken.py', '--limit', '1'], { cwd: FIXTURES });
    expect(diag).toMatchObject({ total: 5, truncated: true });
  });

  test('LSPQ_JSON=1 makes JSON the default', async () => {
    const r = await lspq.run(['typedef', 'main.go:6:shapes'], { cwd: go, env: { LSPQ_JSON: '1' } });
    expect(JSON.parse(r.stdout).locations[0].path).toBe('shape.go');
  });

  test('hover --json', async () => {
    expect(await lspq.json(['hover', 'geometry.go:9:sumAreas'], { cwd: go })).toEqual({
      target: { path: 'geometry.go', line: 9, column: 6, symbol: 'sumAreas' },
      server: 'gopls',
      root: go,
      contents: '```go\nfunc sumAreas(shapes []Shape) float64\n```',
      range: { line: 9, column: 6, endLine: 9, endColumn: 14 },
      source: 'server',
    });
  });

  test('symbols --json: a tree with names positioned on the name', async () => {
    const r = await lspq.json<{
      symbols: { name: string; kind: string; line: number; column: number; children: { name: string }[] }[];
    }>(['symbols', 'src/square.ts', '--kind', 'class,method'], { cwd: ts });
    expect(r.symbols.map((s) => [s.name, s.kind, s.line, s.column, s.children.map((c) => c.name)])).toEqual([
      ['Square', 'class', 3, 14, ['area']],
    ]);
  });

  test('symbols -w --json', async () => {
    const r = await lspq.json<{ query: string; server: string; symbols: unknown[] }>(['symbols', '-w', 'TotalArea'], {
      cwd: go,
    });
    expect(r).toMatchObject({ query: 'TotalArea', server: 'gopls' });
    // gopls matches fuzzily; the exact name comes first.
    expect(r.symbols[0]).toEqual({
      name: 'TotalArea',
      kind: 'function',
      container: 'example.com/shapes',
      path: 'geometry.go',
      line: 17,
      column: 6,
    });
  });

  test('calls --json: items, ranges and nested calls', async () => {
    const r = await lspq.json(['calls', 'geometry.go:5:areaOf', '--depth', '2'], { cwd: go });
    expect(r).toMatchObject({
      item: { name: 'areaOf', kind: 'function', path: 'geometry.go', line: 5, column: 6 },
      direction: 'incoming',
      calls: [
        {
          item: { name: 'sumAreas', path: 'geometry.go', line: 9, column: 6 },
          ranges: [{ line: 12, column: 10, endLine: 12, endColumn: 16 }],
          calls: [{ item: { name: 'TotalArea', path: 'geometry.go', line: 17, column: 6 }, calls: [] }],
        },
      ],
    });
  });

  test('nothing found is exit 1, not an error', async () => {
    const r = await lspq.run(['refs', 'main.go:5:main'], { cwd: go });
    expect(r.stdout).toBe('');
    expect(r.exit).toBe(1);
  });

  test('servers lists found ones with a version and missing ones with the install command', async () => {
    // Exactly these servers on PATH, whatever the machine has (TypeScript 7 comes from the repository's node_modules).
    const only = exactPath(['gopls', 'clangd']);
    // A daemon of its own: a server the file's other tests left running counts as found where it runs.
    const own = new Lspq();
    const r = await own.json<{ servers: { id: string; found: boolean; version?: string; install: string }[] }>(
      ['servers'],
      { env: { PATH: only } },
    );
    expect(await own.stop()).toEqual([]);
    rmSync(only, { recursive: true, force: true });
    expect(
      r.servers
        .filter((s) => s.found)
        .map((s) => s.id)
        .sort(),
    ).toEqual(['clangd', 'gopls', 'typescript']);
    const byId = new Map(r.servers.map((s) => [s.id, s]));
    expect(byId.get('gopls')).toMatchObject({ found: true, version: expect.stringContaining('v0.') });
    expect(byId.get('clangd')).toMatchObject({ found: true, version: expect.stringContaining('clangd version') });
    expect(byId.get('jdtls')).toMatchObject({
      found: false,
      install: "install jdtls: its release archive (Eclipse JDT LS), or your distribution's jdtls package",
    });
  });

  test('colour on a terminal: the command decides, the daemon renders; NO_COLOR turns it off', async () => {
    // script(1) gives the command a terminal; the daemon it forwards to has none.
    const onTerminal = (env: Record<string, string>) =>
      capture(
        ['script', '-qec', [...lspqArgv(), 'def', 'main.go:7:TotalArea'].join(' '), '/dev/null'],
        go,
        lspq.env(env),
      );
    const coloured = await onTerminal({ NO_COLOR: '' });
    expect(coloured.stdout).toBe(
      '\u001b[35mgeometry.go\u001b[39m:\u001b[32m17\u001b[39m:\u001b[32m6\u001b[39m: func TotalArea(shapes []Shape, unit Unit) string {\r\n',
    );
    const plain = await onTerminal({ NO_COLOR: '1' });
    expect(plain.stdout).toBe('geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\r\n');
  });

  test('no colour when stdout is not a terminal', async () => {
    const r = await lspq.run(['def', 'main.go:7:TotalArea'], { cwd: go, env: { NO_COLOR: '' } });
    expect(r.stdout).not.toContain('\u001b[');
  });
});

describe('global flags before the command, as with git and gh', () => {
  const expected = 'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n';
  test.each([
    [['--no-daemon', 'def', 'main.go:7:TotalArea']],
    [['--timeout', '30', 'def', 'main.go:7:TotalArea']],
    [['def', 'main.go:7:TotalArea', '--no-daemon']],
  ])('%j answers as the flags after the command do', async (args) => {
    expect(await lspq.run(args, { cwd: go })).toEqual({ exit: 0, stdout: expected, stderr: '' });
  });

  test('--json first gives the JSON document', async () => {
    const r = await lspq.run(['--json', 'def', 'main.go:7:TotalArea'], { cwd: go });
    expect(r.exit).toBe(0);
    expect(JSON.parse(r.stdout).locations[0]).toMatchObject({ path: 'geometry.go', line: 17, column: 6 });
  });

  test('a global flag and no command is bad input that says so', async () => {
    expect(await lspq.run(['--json'], { cwd: go })).toEqual({
      exit: 2,
      stdout:
        '{"error":{"code":"usage","message":"\'--json\' needs a command (lspq COMMAND --json ...); run \'lspq --help\' for the list"}}\n',
      stderr: "lspq: '--json' needs a command (lspq COMMAND --json ...); run 'lspq --help' for the list\n",
    });
  });
});

describe('a file past the size lspq hands a server', () => {
  test('is refused in one line before any server starts, with the limit and how to raise it', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'lspq-big-'));
    try {
      writeFileSync(join(dir, 'go.mod'), 'module big\n\ngo 1.21\n');
      writeFileSync(
        join(dir, 'big.go'),
        `package big\n\n${'// padding padding padding padding padding\n'.repeat(450_000)}`,
      );
      const r = await lspq.run(['refs', 'big.go:1:big'], { cwd: dir });
      expect(r).toEqual({
        exit: 2,
        stdout: '',
        stderr: `lspq: ${join(dir, 'big.go')} is 18.5 MB, past the 16 MB lspq hands a server; ask about a smaller file, or raise LSPQ_MAX_FILE_MB for the daemon\n`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('servers --for FILE: what each server of the file can answer, from its own initialize result', () => {
  const GOPLS = (known: string) =>
    [
      'gopls golang.org/x/tools/gopls v0.23.0',
      `  binary: ${REPO}/.tools/bin/gopls (found in PATH)`,
      `  root: ${go}`,
      '  runs: as your own code (trusted)',
      `  ${known}`,
      '  answers: def typedef impls refs hover signature symbols symbols-w calls actions fmt rename diag',
      '  cannot: fmt-range mv',
      '  diagnostics complete by: gopls-barrier',
      'untrusted workspaces: none: every folder is trusted (LSPQ_TRUST=all)',
      '',
    ].join('\n');

  test('Go: one server, where it was found, what it answers and cannot, how its diagnostics complete', async () => {
    expect((await lspq.run(['def', 'main.go:7:TotalArea'], { cwd: go })).exit).toBe(0);
    expect(await lspq.run(['servers', '--for', 'main.go'], { cwd: go })).toEqual({
      exit: 0,
      stdout: GOPLS('asked: its running server'),
      stderr: '',
    });
  });

  test('Python (JSON): pyright, pylsp and ruff in the order asked, each with its answers; the others missing', async () => {
    // Exactly these three (and the runtimes) on PATH: basedpyright is installed for other tests.
    const only = exactPath(['node', 'python3', 'pyright-langserver', 'pylsp', 'ruff']);
    const env = { PATH: only };
    const cwd = join(FIXTURES, 'py-shapes');
    // Each of them running: diag asks pyright and ruff, def pylsp.
    await lspq.run(['diag', 'main.py'], { cwd, env });
    await lspq.run(['def', 'main.py:7:total_area', '--server', 'pylsp'], { cwd, env });
    const r = await lspq.json<{
      file: string;
      servers: { id: string; answers: Record<string, boolean>; diagnostics: string; known: { from: string } }[];
      missing: { id: string }[];
    }>(['servers', '--for', 'main.py'], { cwd, env });
    rmSync(only, { recursive: true, force: true });
    expect(r.file).toBe('main.py');
    expect(r.servers.map((s) => [s.id, s.answers.def, s.answers.impls, s.answers.fmt, s.diagnostics, s.known])).toEqual(
      [
        ['pyright', true, false, false, 'pull', { from: 'running' }],
        ['pylsp', true, false, true, 'push-each', { from: 'running' }],
        ['ruff', false, false, true, 'pull', { from: 'running' }],
      ],
    );
    expect(r.missing.map((m) => m.id)).toEqual(['basedpyright', 'jedi-language-server']);
  });

  test('looking starts nothing: no daemon, no server; what a server answers is remembered from its last run', async () => {
    const looker = new Lspq();
    // gopls as a program that says each time it runs, and with which words.
    const bin = exactPath(['gopls']);
    const said = join(looker.dir, 'gopls-runs');
    const real = Bun.which('gopls', { PATH: toolsPath() })!;
    rmSync(join(bin, 'gopls'));
    writeFileSync(join(bin, 'gopls'), `#!/bin/sh\necho "run: $*" >> '${said}'\nexec '${real}' "$@"\n`);
    chmodSync(join(bin, 'gopls'), 0o755);
    const env = { PATH: `${bin}:${toolsPath()}` };
    const runs = () => (existsSync(said) ? readFileSync(said, 'utf8') : '');
    const GOPLS_HERE = (known: string) => GOPLS(known).replace(`${REPO}/.tools/bin/gopls`, join(bin, 'gopls'));
    try {
      for (let i = 0; i < 2; i++) {
        // (daemon status: exit 1, none running.)
        for (const [args, exit] of [
          [['servers'], 0],
          [['trust', '--explain'], 0],
          [['daemon', 'status'], 1],
        ] as const)
          expect([args, (await looker.run([...args], { cwd: go, env })).exit]).toEqual([args, exit]);
        const forFile = await looker.run(['servers', '--for', 'main.go'], { cwd: go, env });
        expect(forFile).toEqual({
          exit: 0,
          stdout: GOPLS_HERE('not started: never run here, so known from the registry only (what it is known to lack)')
            .replace(
              '  answers: def typedef impls refs hover signature symbols symbols-w calls actions fmt rename diag',
              '  answers: def typedef impls refs hover signature symbols symbols-w calls actions fmt fmt-range rename diag',
            )
            .replace('  cannot: fmt-range mv', '  cannot: mv'),
          stderr: '',
        });
        expect(existsSync(looker.socket)).toBe(false);
        // gopls ran once, to say its version, and never as a server.
        expect(runs()).toBe('run: version\n');
      }
      // Run once as a server: what it said is remembered when it stops, and looking answers from it.
      expect((await looker.run(['def', 'main.go:7:TotalArea'], { cwd: go, env })).exit).toBe(0);
      expect((await looker.run(['servers', '--for', 'main.go'], { cwd: go, env })).stdout).toBe(
        GOPLS_HERE('asked: its running server'),
      );
      await looker.run(['daemon', 'stop']);
      const today = new Date().toISOString().slice(0, 10);
      for (let i = 0; i < 2; i++) {
        expect(await looker.run(['servers', '--for', 'main.go'], { cwd: go, env })).toEqual({
          exit: 0,
          stdout: GOPLS_HERE(`not started: known from its last run here (${today})`),
          stderr: '',
        });
        expect(existsSync(looker.socket)).toBe(false);
      }
      expect(
        runs()
          .split('\n')
          .filter((l) => l && l !== 'run: version'),
      ).toHaveLength(1);
    } finally {
      expect(await looker.stop()).toEqual([]);
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe('servers --for a server never run here: what the registry says, mv where its server updates imports', () => {
  test('rust-analyzer (anyhow), both TypeScript servers (query-core) and basedpyright answer mv; pyright, pylsp, jedi, ruff and gopls do not; nothing started', async () => {
    const looker = new Lspq();
    const top = scratchDir('never-run');
    try {
      const anyhow = anyhowAt(join(top, 'anyhow'));
      const core = queryCoreAt(join(top, 'query-core'));
      const asked = async (file: string, cwd: string) => {
        const r = await looker.json<{ servers: { id: string; known: { from: string }; answers: { mv: boolean } }[] }>(
          ['servers', '--for', file],
          { cwd },
        );
        return r.servers.map((s) => [s.id, s.known.from, s.answers.mv]);
      };
      expect(await asked('src/lib.rs', anyhow)).toEqual([['rust-analyzer', 'declared', true]]);
      expect(await asked('src/utils.ts', core)).toEqual([
        ['typescript', 'declared', true],
        ['typescript-language-server', 'declared', true],
      ]);
      expect(await asked('main.py', join(FIXTURES, 'py-shapes'))).toEqual([
        ['pyright', 'declared', false],
        ['basedpyright', 'declared', true],
        ['pylsp', 'declared', false],
        ['jedi-language-server', 'declared', false],
        ['ruff', 'declared', false],
      ]);
      expect(await asked('main.go', go)).toEqual([['gopls', 'declared', false]]);
      const text = await looker.run(['servers', '--for', 'src/lib.rs'], { cwd: anyhow });
      expect(text.stdout.split('\n').filter((l) => /^ {2}(not started|answers|cannot):/.test(l))).toEqual([
        '  not started: never run here, so known from the registry only (what it is known to lack)',
        '  answers: def typedef impls refs hover signature symbols symbols-w calls actions fmt rename mv diag',
        '  cannot: fmt-range',
      ]);
      expect(existsSync(looker.socket)).toBe(false);
    } finally {
      expect(await looker.stop()).toEqual([]);
      rmSync(top, { recursive: true, force: true });
    }
  });
});

describe('servers, asked from outside a project whose own server runs', () => {
  test("a server found in a project's node_modules reads as found where it runs, not missing", async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    expect((await lspq.run(['def', 'src/main.ts:7:totalArea'], { cwd: ts })).exit).toBe(0);
    const outside = mkdtempSync(join(tmpdir(), 'lspq-outside-'));
    try {
      const only = exactPath(['gopls']);
      const r = await lspq.json<{ servers: { id: string; found: boolean; command?: string; roots: string[] }[] }>(
        ['servers'],
        { cwd: outside, env: { PATH: only } },
      );
      rmSync(only, { recursive: true, force: true });
      const typescript = r.servers.find((s) => s.id === 'typescript')!;
      expect(typescript.found).toBe(true);
      expect(typescript.roots).toContain(ts);
      expect(typescript.command).toEndWith('/lib/tsc');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
