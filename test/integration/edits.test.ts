/**
 * rename, fmt and actions against real servers on scratch copies of the
 * fixtures and on gorilla/mux: the exact text written, the project still
 * passing its own checker afterwards, the same question again warm, the
 * diff of a dry run applied by git itself and checked by diag --patch, and
 * a server's refusal in all its words.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, exactPath, fakeProject, git, Lspq, REPO, scratchDir } from '../helpers/lspq';
import { MUX, muxAt } from '../helpers/published';

const lspq = new Lspq();
const scratch: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function copy(name: string): string {
  const dir = copyFixture(name);
  scratch.push(dir);
  return dir;
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

/** lspq with `input` on its stdin (a patch for diag --patch -). */
/** lspq with `input` on its stdin. */
const piped = (args: string[], cwd: string, input: string) => lspq.run(args, { cwd, stdin: input });

/** A checker run in `dir`: its exit code and output, so a failure says why. */
function check(dir: string, argv: string[]): { exit: number; output: string } {
  const r = Bun.spawnSync(argv, { cwd: dir, env: lspq.env(), stdin: 'ignore' });
  return { exit: r.exitCode, output: `${r.stdout.toString()}${r.stderr.toString()}` };
}

const tsc = (dir: string) => check(dir, [join(REPO, 'node_modules', '.bin', 'tsc'), '--noEmit', '-p', '.']);

describe('rename', () => {
  test('TypeScript: through a barrel re-export, every name follows; tsc passes; refs warm see the new name', async () => {
    const dir = copy('ts-shapes');
    writeFileSync(join(dir, 'src/index.ts'), "export { totalArea } from './geometry';\n");
    writeFileSync(join(dir, 'src/main.ts'), read(dir, 'src/main.ts').replace("from './geometry'", "from './index'"));
    const r = await lspq.run(['rename', 'src/geometry.ts:13:totalArea', 'sumOfAreas'], { cwd: dir });
    expect(r).toEqual({
      stdout: 'src/geometry.ts: 1 edit\nsrc/index.ts: 1 edit\nsrc/main.ts: 2 edits\n',
      stderr: "lspq: renamed to 'sumOfAreas': 4 edits in 3 files\n",
      exit: 0,
    });
    expect(read(dir, 'src/index.ts')).toBe("export { sumOfAreas } from './geometry';\n");
    expect(read(dir, 'src/main.ts')).toContain("import { sumOfAreas } from './index';");
    expect(read(dir, 'src/main.ts')).toContain("console.log(名前, sumOfAreas(shapes, 'cm'));");
    expect(tsc(dir)).toEqual({ exit: 0, output: '' });
    // The server was told what was written: the next question, warm, sees it.
    const refs = await lspq.run(['refs', 'src/geometry.ts:13:sumOfAreas'], { cwd: dir });
    expect(refs.stdout).toBe(
      [
        "src/index.ts:1:10: export { sumOfAreas } from './geometry';",
        "src/main.ts:3:10: import { sumOfAreas } from './index';",
        "src/main.ts:7:36: const 名前 = '🎉 图形'; console.log(名前, sumOfAreas(shapes, 'cm'));",
        '',
      ].join('\n'),
    );
    // And back: the same edit the other way round gives the original files.
    expect((await lspq.run(['rename', 'src/geometry.ts:13:sumOfAreas', 'totalArea'], { cwd: dir })).exit).toBe(0);
    expect(read(dir, 'src/geometry.ts')).toBe(
      readFileSync(join(REPO, 'test/fixtures/ts-shapes/src/geometry.ts'), 'utf8'),
    );
  });

  test('Go: across packages; go build passes', async () => {
    const dir = copy('go-shapes');
    mkdirSync(join(dir, 'units'));
    writeFileSync(join(dir, 'go.mod'), 'module example.com/shapes\n\ngo 1.21\n');
    writeFileSync(
      join(dir, 'units/units.go'),
      'package units\n\n// Square turns a length into an area unit.\nfunc Square(unit string) string { return unit + "²" }\n',
    );
    writeFileSync(
      join(dir, 'units_use.go'),
      'package main\n\nimport "example.com/shapes/units"\n\nvar areaUnit = units.Square("cm")\n',
    );
    const r = await lspq.run(['rename', 'units/units.go:4:Square', 'Squared'], { cwd: dir });
    // gopls renames the doc comment's mention too.
    expect(r.stdout).toBe('units/units.go: 2 edits\nunits_use.go: 1 edit\n');
    expect(read(dir, 'units/units.go')).toBe(
      'package units\n\n// Squared turns a length into an area unit.\nfunc Squared(unit string) string { return unit + "²" }\n',
    );
    expect(read(dir, 'units_use.go')).toBe(
      'package main\n\nimport "example.com/shapes/units"\n\nvar areaUnit = units.Squared("cm")\n',
    );
    expect(check(dir, ['go', 'build', './...'])).toEqual({ exit: 0, output: '' });
  });

  test('Python: across modules; pyright passes', async () => {
    const dir = copy('py-shapes');
    const r = await lspq.run(['rename', 'shapes/geometry.py:15:total_area', 'area_sum'], { cwd: dir });
    expect(r.stdout).toBe('main.py: 2 edits\nshapes/geometry.py: 1 edit\n');
    expect(read(dir, 'main.py')).toContain('from shapes.geometry import area_sum\n');
    expect(read(dir, 'main.py')).toContain('print(名前, area_sum(shapes, "cm"))');
    const pyright = check(dir, [join(REPO, '.tools', 'node_modules', '.bin', 'pyright'), '.']);
    expect(pyright.output).toContain('0 errors');
    expect(pyright.exit).toBe(0);
  });

  test('C: a function declared in a header, its definition and its calls; the sources compile', async () => {
    const dir = copy('c-shapes');
    const files = ['main.c', 'circle.c', 'square.c', 'geometry.c'];
    writeFileSync(
      join(dir, 'compile_commands.json'),
      JSON.stringify(files.map((file) => ({ directory: dir, file, arguments: ['cc', '-std=c11', '-c', file] }))),
    );
    const r = await lspq.run(['rename', 'shape.h:13:total_area', 'shapes_area'], { cwd: dir });
    expect(r.stdout).toBe('geometry.c: 1 edit\nmain.c: 1 edit\nshape.h: 1 edit\n');
    expect(read(dir, 'shape.h')).toContain('double shapes_area(const struct shape *shapes, int count);');
    expect(check(dir, ['cc', '-std=c11', '-fsyntax-only', ...files])).toEqual({ exit: 0, output: '' });
  });

  test('Python, a FILE:LINE:COL target: the old name left in a comment and a docstring is named as such, read before the edit', async () => {
    const dir = scratchDir('leftover');
    try {
      writeFileSync(join(dir, 'pyproject.toml'), '[project]\nname = "p"\nversion = "0"\n');
      writeFileSync(join(dir, 'a.py'), 'def total(x):\n    return x\n');
      writeFileSync(join(dir, 'b.py'), 'from a import total\n\nprint(total(1))\n');
      writeFileSync(join(dir, 'notes.py'), '# total is computed in a\n\n\ndef f():\n    """Calls total."""\n');
      for (let i = 0; i < 2; i++) {
        const [from, to] = i === 0 ? ['total', 'overall'] : ['overall', 'total'];
        const r = await lspq.run(['rename', 'a.py:1:5', to], { cwd: dir });
        expect(r).toEqual({
          exit: 0,
          stdout: 'a.py: 1 edit\nb.py: 2 edits\n',
          stderr:
            i === 0
              ? `lspq: warning: '${from}' is still written where pyright did not rename it (in comments or strings): notes.py:1:3, notes.py:5:14\nlspq: renamed to '${to}': 3 edits in 2 files\n`
              : `lspq: renamed to '${to}': 3 edits in 2 files\n`,
        });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('C: a file outside the compile database still calling the old name is named in a warning (and in JSON)', async () => {
    const dir = copy('c-shapes');
    const files = ['main.c', 'circle.c', 'square.c', 'geometry.c'];
    writeFileSync(
      join(dir, 'compile_commands.json'),
      JSON.stringify(files.map((file) => ({ directory: dir, file, arguments: ['cc', '-std=c11', '-c', file] }))),
    );
    writeFileSync(
      join(dir, 'legacy.c'),
      '#include "shape.h"\n#ifdef LEGACY_PLATFORM\ndouble legacy(const struct shape *s) { return total_area(s, 1); }\n#endif\n',
    );
    const r = await lspq.run(['rename', 'geometry.c:16:total_area', 'whole_area'], { cwd: dir });
    expect(r).toEqual({
      exit: 0,
      stdout: 'geometry.c: 1 edit\nmain.c: 1 edit\nshape.h: 1 edit\n',
      stderr:
        "lspq: warning: 'total_area' is still written where clangd did not rename it (in code another build configuration compiles: another platform, an inactive #ifdef): legacy.c:3:47\nlspq: renamed to 'whole_area': 3 edits in 3 files\n",
    });
    const back = await lspq.json<{ unrenamed: { path: string; line: number; column: number }[] }>(
      ['rename', 'geometry.c:16:whole_area', 'total_area', '--dry-run'],
      { cwd: dir },
    );
    // Renaming back: legacy.c already says total_area, and the new name is nowhere else.
    expect(back.unrenamed).toEqual([]);
  });

  test('--dry-run: a diff git apply accepts, nothing written; the same dry run again gives the same diff', async () => {
    const dir = copy('go-shapes');
    // A checkout of its own: the diff's paths are written from the checkout's top.
    git(dir, 'init', '-q');
    const before = read(dir, 'geometry.go');
    const r = await lspq.run(['rename', 'geometry.go:17:TotalArea', 'SumOfAreas', '--dry-run'], { cwd: dir });
    expect(r.exit).toBe(0);
    expect(r.stdout.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual([
      '-func TotalArea(shapes []Shape, unit Unit) string {',
      '+func SumOfAreas(shapes []Shape, unit Unit) string {',
      '-\t名前 := "🎉 图形"; fmt.Println(名前, TotalArea(shapes, "cm"))',
      '+\t名前 := "🎉 图形"; fmt.Println(名前, SumOfAreas(shapes, "cm"))',
    ]);
    expect(read(dir, 'geometry.go')).toBe(before);
    expect(
      (await lspq.run(['rename', 'geometry.go:17:TotalArea', 'SumOfAreas', '--dry-run'], { cwd: dir })).stdout,
    ).toBe(r.stdout);
    writeFileSync(join(dir, 'edit.patch'), r.stdout);
    git(dir, 'apply', 'edit.patch');
    expect(read(dir, 'geometry.go')).toContain('func SumOfAreas(shapes []Shape, unit Unit) string {');
  });

  test("--dry-run in a Go module that is a folder of its checkout (gorilla/mux): git's paths from the top, taken by git apply there and by diag --patch", async () => {
    const top = scratchDir('mux-folder');
    scratch.push(top);
    cpSync(MUX, join(top, 'mux'), { recursive: true });
    git(top, 'init', '-q', '-b', 'main');
    git(top, 'add', '-A');
    git(top, 'commit', '-qm', 'gorilla/mux 1.8.1 in a folder');
    const dir = join(top, 'mux');
    const r = await lspq.run(['rename', 'mux.go:547:matchMapWithString', 'matchesMap', '--dry-run'], { cwd: dir });
    const patch = [
      'diff --git a/mux/mux.go b/mux/mux.go',
      '--- a/mux/mux.go',
      '+++ b/mux/mux.go',
      '@@ -543,8 +543,8 @@',
      ' \treturn false',
      ' }',
      ' ',
      '-// matchMapWithString returns true if the given key/value pairs exist in a given map.',
      '-func matchMapWithString(toCheck map[string]string, toMatch map[string][]string, canonicalKey bool) bool {',
      '+// matchesMap returns true if the given key/value pairs exist in a given map.',
      '+func matchesMap(toCheck map[string]string, toMatch map[string][]string, canonicalKey bool) bool {',
      ' \tfor k, v := range toCheck {',
      ' \t\t// Check if key exists.',
      ' \t\tif canonicalKey {',
      'diff --git a/mux/route.go b/mux/route.go',
      '--- a/mux/route.go',
      '+++ b/mux/route.go',
      '@@ -234,7 +234,7 @@',
      ' type headerMatcher map[string]string',
      ' ',
      ' func (m headerMatcher) Match(r *http.Request, match *RouteMatch) bool {',
      '-\treturn matchMapWithString(m, r.Header, true)',
      '+\treturn matchesMap(m, r.Header, true)',
      ' }',
      ' ',
      ' // Headers adds a matcher for request header values.',
      '',
    ].join('\n');
    expect(r).toEqual({ exit: 0, stdout: patch, stderr: '' });
    expect(git(top, 'status', '--porcelain')).toBe('');
    expect(await piped(['diag', '--patch', '-'], dir, patch)).toEqual({
      exit: 0,
      stdout: '',
      stderr: 'lspq: nothing new with the patch (2 files touched) in 17 files; 5 problems already there, not counted\n',
    });
    writeFileSync(join(top, '..', 'mux-folder.patch'), patch);
    // Where the user asked, in the module's folder: git reads the paths from the top, as lspq wrote them.
    git(dir, 'apply', join(top, '..', 'mux-folder.patch'));
    expect(git(top, 'status', '--porcelain')).toBe(' M mux/mux.go\n M mux/route.go\n');
    expect(read(dir, 'route.go')).toContain('\treturn matchesMap(m, r.Header, true)\n');
    rmSync(join(top, '..', 'mux-folder.patch'));
  });

  test("gopls's refusal on gorilla/mux in all its lines (the refusal, why, what to do) as one, text and JSON; nothing written", async () => {
    const top = scratchDir('mux-refusal');
    scratch.push(top);
    const dir = muxAt(join(top, 'mux'));
    const message =
      'route.go:236:24 cannot be renamed to \'Matches\': mux/route.go:236:24: renaming this method "Match" to "Matches"; mux/route.go:171:6: would make github.com/gorilla/mux.headerMatcher no longer assignable to interface matcher; mux/route.go:172:2: (rename github.com/gorilla/mux.matcher.Match if you intend to change both types)';
    expect(await lspq.run(['rename', 'route.go:236:Match', 'Matches'], { cwd: dir })).toEqual({
      exit: 2,
      stdout: '',
      stderr: `lspq: ${message}\n`,
    });
    expect(await lspq.json(['rename', 'route.go:236:Match', 'Matches', '--dry-run'], { cwd: dir })).toEqual({
      error: { code: 'cannot_rename', message },
    });
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  test('JSON: the files and their edit counts, applied false for a dry run', async () => {
    const dir = copy('go-shapes');
    const json = await lspq.json(['rename', 'geometry.go:17:TotalArea', 'SumOfAreas', '--dry-run'], { cwd: dir });
    expect(json).toMatchObject({
      server: 'gopls',
      newName: 'SumOfAreas',
      applied: false,
      files: [
        { path: 'geometry.go', changes: 1 },
        { path: 'main.go', changes: 1 },
      ],
    });
  });

  test('a place that cannot be renamed: exit 2 with the server reason, nothing written', async () => {
    const dir = copy('go-shapes');
    const bad = await lspq.run(['rename', 'geometry.go:17:TotalArea', 'not valid'], { cwd: dir });
    expect(bad).toEqual({
      stdout: '',
      stderr: 'lspq: geometry.go:17:6 cannot be renamed to \'not valid\': invalid identifier to rename: "not valid"\n',
      exit: 2,
    });
    const nothing = await lspq.run(['rename', 'geometry.go:1:1', 'X'], { cwd: dir });
    expect(nothing.exit).toBe(2);
    expect(nothing.stderr).toBe(
      'lspq: geometry.go:1:1 cannot be renamed: gopls finds no symbol there; point at the name to rename\n',
    );
  });
});

/** The note of a formatting that the project's configuration did not choose: the server's, said by name. */
const byServer = (verb: 'checked' | 'formatted', server: string) =>
  `lspq: ${verb} with ${server} (the project names no formatter)\n`;
const GOFMT = (verb: 'checked' | 'formatted') => byServer(verb, 'gopls, which runs gofmt');

describe('fmt', () => {
  const mangled = 'package main\nimport "fmt"\nfunc  mangled( x int)int{\nif x>1{fmt.Println( x)}\nreturn x+1}\n';

  test('Go: byte for byte what gofmt writes; --check exits 1 then 0', async () => {
    const dir = copy('go-shapes');
    writeFileSync(join(dir, 'mangled.go'), mangled);
    const gofmt = Bun.spawnSync(['gofmt'], { stdin: new TextEncoder().encode(mangled) }).stdout.toString();
    expect(await lspq.run(['fmt', '--check', 'mangled.go'], { cwd: dir })).toEqual({
      stdout: 'mangled.go\n',
      stderr: GOFMT('checked'),
      exit: 1,
    });
    const written = await lspq.run(['fmt', 'mangled.go', '--write'], { cwd: dir });
    expect(written.exit).toBe(0);
    expect(written.stdout).toBe('mangled.go: 8 lines changed\n');
    expect(read(dir, 'mangled.go')).toBe(gofmt);
    expect(await lspq.run(['fmt', '--check', 'mangled.go'], { cwd: dir })).toEqual({
      stdout: '',
      stderr: GOFMT('checked'),
      exit: 0,
    });
    expect(await lspq.run(['fmt', 'mangled.go'], { cwd: dir })).toEqual({
      stdout: '',
      stderr: GOFMT('formatted'),
      exit: 0,
    });
  });

  test('several files in one call, each reported', async () => {
    const dir = copy('go-shapes');
    writeFileSync(join(dir, 'a.go'), 'package main\nvar  a=1\n');
    writeFileSync(join(dir, 'b.go'), 'package main\n\nvar b = 2\n');
    writeFileSync(join(dir, 'c.go'), 'package main\nvar  c=3\n');
    expect((await lspq.run(['fmt', '--check', 'a.go', 'b.go', 'c.go'], { cwd: dir })).stdout).toBe('a.go\nc.go\n');
    const json = await lspq.json(['fmt', 'a.go', 'b.go', 'c.go'], { cwd: dir });
    expect(json.files).toEqual([
      { path: 'a.go', changed: true, edits: expect.any(Number), lines: 2, formatter: 'gopls' },
      { path: 'b.go', changed: false, edits: 0, lines: 0, formatter: 'gopls' },
      { path: 'c.go', changed: true, edits: expect.any(Number), lines: 2, formatter: 'gopls' },
    ]);
    // gopls formats as gofmt does: no formatter of the project's is needed for Go.
    expect(json.formatters).toEqual([{ name: 'gopls', by: 'server', runs: 'gofmt' }]);
  });

  test('--range on Go: gopls offers no range formatting, and lspq says so (exit 3)', async () => {
    const dir = copy('go-shapes');
    const r = await lspq.run(['fmt', 'main.go', '--range', '1-3'], { cwd: dir });
    expect(r.exit).toBe(3);
    expect(r.stderr).toStartWith('lspq: gopls cannot answer range formatting for ');
  });

  test('--range: only those lines are formatted (TypeScript)', async () => {
    const dir = copy('ts-shapes');
    writeFileSync(join(dir, 'src/spaced.ts'), 'export const a  =  1;\nexport const b  =  2;\nexport const c  =  3;\n');
    // The copy lies in lspq's own checkout, whose biome.json would format it: the server's formatting is asked by name.
    const r = await lspq.run(['fmt', 'src/spaced.ts', '--range', '2-2', '--write', '--server', 'typescript'], {
      cwd: dir,
    });
    expect(r.exit).toBe(0);
    expect(read(dir, 'src/spaced.ts')).toBe('export const a  =  1;\nexport const b = 2;\nexport const c  =  3;\n');
  });

  test('CRLF line endings and a byte-order mark are kept; .editorconfig sets the indent', async () => {
    const dir = copy('ts-shapes');
    writeFileSync(join(dir, '.editorconfig'), 'root = true\n\n[*.ts]\nindent_style = space\nindent_size = 2\n');
    writeFileSync(join(dir, 'src/crlf.ts'), '\uFEFFexport function f() {\r\n        return  1;\r\n}\r\n');
    // One line to fix: one line changed, however many edits the server sent for it.
    // The server's formatting, asked by name: lspq's own biome.json lies above the copy.
    expect(await lspq.run(['fmt', 'src/crlf.ts', '--write', '--server', 'typescript'], { cwd: dir })).toEqual({
      exit: 0,
      stdout: 'src/crlf.ts: 1 line changed\n',
      stderr: '',
    });
    expect(read(dir, 'src/crlf.ts')).toBe('\uFEFFexport function f() {\r\n  return 1;\r\n}\r\n');
  });

  test.each(['typescript', 'typescript-language-server'])(
    "%s: with no .editorconfig, the file's own indentation (tabs, two spaces) is kept; only the line to fix changes",
    async (server) => {
      const dir = copy('ts-shapes');
      const tabs = 'export function f(x: number) {\n\tif (x > 1) {\n\t\treturn  x;\n\t}\n\treturn 0;\n}\n';
      const two = 'export function g(x: number) {\n  if (x > 1) {\n    return  x;\n  }\n  return 0;\n}\n';
      writeFileSync(join(dir, 'src/tabs.ts'), tabs);
      writeFileSync(join(dir, 'src/two.ts'), two);
      const r = await lspq.run(['fmt', 'src/tabs.ts', 'src/two.ts', '--write', '--server', server], { cwd: dir });
      expect(r).toEqual({ exit: 0, stdout: 'src/tabs.ts: 1 line changed\nsrc/two.ts: 1 line changed\n', stderr: '' });
      expect(read(dir, 'src/tabs.ts')).toBe(tabs.replace('return  x', 'return x'));
      expect(read(dir, 'src/two.ts')).toBe(two.replace('return  x', 'return x'));
    },
  );

  test('Python with pyright, pylsp and ruff: fmt goes to the formatter (ruff), so --check fails an unformatted file', async () => {
    const dir = copy('py-shapes');
    writeFileSync(join(dir, 'messy.py'), 'x  =  1\ndef f( a ):\n    return a\n');
    expect(await lspq.run(['fmt', '--check', 'messy.py'], { cwd: dir })).toEqual({
      exit: 1,
      stdout: 'messy.py\n',
      stderr: byServer('checked', 'ruff'),
    });
    const json = await lspq.json<{ server: string }>(['fmt', 'messy.py'], { cwd: dir });
    expect(json.server).toBe('ruff');
    expect((await lspq.run(['fmt', 'messy.py', '--write'], { cwd: dir })).exit).toBe(0);
    expect(read(dir, 'messy.py')).toBe('x = 1\n\n\ndef f(a):\n    return a\n');
  });

  test('pylsp with no formatter plugin: --check, the diff and --write exit 3 naming what would format, nothing written; with autopep8, it formats', async () => {
    const dir = copy('py-shapes');
    const messy = 'x  =  1\ndef f( a ):\n    return a\n';
    writeFileSync(join(dir, 'messy.py'), messy);
    writeFileSync(join(dir, 'tidy.py'), 'x = 1\n');
    const bin = exactPath(['pylsp']);
    scratch.push(bin);
    const NONE =
      'lspq: pylsp formats nothing here, so messy.py was not checked: none of its formatter plugins (autopep8, yapf, python-lsp-black or python-lsp-ruff) is installed or enabled; install one where pylsp runs, or install ruff, which lspq asks first\n';
    for (const mode of [['--check'], [], ['--write']])
      expect(await lspq.run(['fmt', ...mode, 'messy.py'], { cwd: dir, env: { PATH: bin } })).toEqual({
        stdout: '',
        stderr: NONE,
        exit: 3,
      });
    // An already formatted file is no different to it: not checked either.
    expect((await lspq.run(['fmt', '--check', 'tidy.py'], { cwd: dir, env: { PATH: bin } })).exit).toBe(3);
    expect(read(dir, 'messy.py')).toBe(messy);
    // autopep8 where pylsp can import it: a formatter answers the probe, so "no edits" means formatted.
    const env = { PATH: bin, PYTHONPATH: join(REPO, '.tools', 'pylsp-autopep8') };
    // Asked five times: pylsp formats each request on a thread of its own, and autopep8 formatting two files at
    // once left one of them unchanged (exit 0) in one run of three; lspq sends it one file at a time.
    for (let round = 0; round < 5; round++)
      expect([round, await lspq.run(['fmt', '--check', 'messy.py', 'tidy.py'], { cwd: dir, env })]).toEqual([
        round,
        { stdout: 'messy.py\n', stderr: byServer('checked', 'pylsp'), exit: 1 },
      ]);
    expect(await lspq.run(['fmt', '--check', 'tidy.py'], { cwd: dir, env })).toEqual({
      stdout: '',
      stderr: byServer('checked', 'pylsp'),
      exit: 0,
    });
  });

  test('rust-analyzer and a file rustfmt cannot parse: --check, the diff and --write exit 3 naming the file and its syntax error; once mended, formatted', async () => {
    const dir = copy('rust-shapes');
    const shape = read(dir, 'src/shape.rs');
    const broken = `${shape}\npub fn broken() -> i32 {\n    let x = ;\n    x\n}\n`;
    writeFileSync(join(dir, 'src/shape.rs'), broken);
    const line = broken.split('\n').indexOf('    let x = ;') + 1;
    const NOT_PARSED = `lspq: rust-analyzer formatted nothing in src/shape.rs: rustfmt cannot parse it (src/shape.rs:${line}:13: Syntax Error: expected expression); fix the syntax error, then format\n`;
    for (let i = 0; i < 2; i++)
      for (const mode of [['--check'], [], ['--write']])
        expect(await lspq.run(['fmt', ...mode, 'src/shape.rs', 'src/circle.rs'], { cwd: dir })).toEqual({
          stdout: '',
          stderr: NOT_PARSED,
          exit: 3,
        });
    expect(read(dir, 'src/shape.rs')).toBe(broken);
    writeFileSync(join(dir, 'src/shape.rs'), shape);
    expect(await lspq.run(['fmt', '--check', 'src/shape.rs', 'src/circle.rs'], { cwd: dir })).toEqual({
      stdout: '',
      stderr: byServer('checked', 'rust-analyzer, which runs rustfmt'),
      exit: 0,
    });
  });

  test('a read-only file is not replaced, and the file written before it is put back', async () => {
    const dir = copy('go-shapes');
    writeFileSync(join(dir, 'a.go'), 'package main\nvar  a=1\n');
    writeFileSync(join(dir, 'b.go'), 'package main\nvar  b=2\n');
    chmodSync(join(dir, 'b.go'), 0o444);
    const r = await lspq.run(['fmt', 'a.go', 'b.go', '--write'], { cwd: dir });
    expect(r).toEqual({
      stdout: '',
      stderr: `lspq: could not write ${join(dir, 'b.go')} (read-only); nothing was changed (1 file(s) written before it were restored)\n`,
      exit: 3,
    });
    expect(read(dir, 'a.go')).toBe('package main\nvar  a=1\n');
    expect(read(dir, 'b.go')).toBe('package main\nvar  b=2\n');
  });
});

describe('actions', () => {
  test('TypeScript: the quick fix that adds a missing import, listed, shown, applied; tsc passes', async () => {
    const dir = copy('ts-shapes');
    writeFileSync(
      join(dir, 'src/main.ts'),
      read(dir, 'src/main.ts').replace("import { Circle } from './circle';\n", ''),
    );
    expect(await lspq.run(['actions', 'src/main.ts:5:Circle'], { cwd: dir })).toEqual({
      stdout: '1  jjkrkq  quickfix  Add import from "./circle"\n',
      stderr: '',
      exit: 0,
    });
    const json = await lspq.json(['actions', 'src/main.ts:5:Circle', '--kind', 'quickfix'], { cwd: dir });
    expect(json.actions).toEqual([
      {
        index: 1,
        id: 'jjkrkq',
        title: 'Add import from "./circle"',
        kind: 'quickfix',
        preferred: false,
        edits: [{ path: 'src/main.ts', changes: 1 }],
        server: 'typescript',
      },
    ]);
    const dry = await lspq.run(['actions', 'src/main.ts:5:Circle', '--apply', '1', '--dry-run'], { cwd: dir });
    expect(dry.stdout).toContain("+import { Circle } from './circle';\n");
    expect(tsc(dir).output).toContain("Cannot find name 'Circle'");
    const applied = await lspq.run(['actions', 'src/main.ts:5:Circle', '--apply', '1'], { cwd: dir });
    expect(applied).toEqual({
      stdout: 'src/main.ts: 1 edit\n',
      stderr: 'lspq: applied 1: Add import from "./circle"\n',
      exit: 0,
    });
    expect(tsc(dir)).toEqual({ exit: 0, output: '' });
    // Asked again where Circle now is (the import moved it down a line): no quick fix any more.
    expect(await lspq.run(['actions', 'src/main.ts:6:Circle', '--kind', 'quickfix'], { cwd: dir })).toEqual({
      stdout: '',
      stderr: 'lspq: no code actions of kind quickfix at src/main.ts:6:30\n',
      exit: 1,
    });
  });

  test('typescript-language-server offers every refactor it knows: the disabled ones only with --all; the numbers are those shown, and --apply takes them', async () => {
    const dir = copy('ts-shapes');
    writeFileSync(
      join(dir, 'src/main.ts'),
      read(dir, 'src/main.ts').replace("import { Circle } from './circle';\n", ''),
    );
    const server = ['--server', 'typescript-language-server'];
    expect(await lspq.run(['actions', 'src/main.ts:5:Circle', ...server], { cwd: dir })).toEqual({
      stdout:
        '1  twvsmt  quickfix  Add import from "./circle" (preferred)\n2  jrxhzw  refactor.move.newFile  Move to a new file\n',
      stderr: 'lspq: warning: 17 disabled actions not shown; --all lists them with why\n',
      exit: 0,
    });
    const shown = await lspq.json<{ actions: { index: number; title: string }[]; hidden: number }>(
      ['actions', 'src/main.ts:5:Circle', ...server],
      { cwd: dir },
    );
    expect([shown.actions.map((a) => [a.index, a.title]), shown.hidden]).toEqual([
      [
        [1, 'Add import from "./circle"'],
        [2, 'Move to a new file'],
      ],
      17,
    ]);
    const all = await lspq.json<{ actions: { index: number; title: string; disabled?: string }[]; hidden: number }>(
      ['actions', 'src/main.ts:5:Circle', '--all', ...server],
      { cwd: dir },
    );
    expect([all.actions.length, all.hidden, all.actions.filter((a) => a.disabled).length]).toEqual([19, 0, 17]);
    // With --all every action is shown, so numbered 1 to 19 with no gap.
    expect(all.actions.map((a) => a.index)).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
    expect(all.actions[1]).toEqual(expect.objectContaining({ index: 2, disabled: 'Could not find export statement' }));
    const move = all.actions.find((a) => a.title === 'Move to a new file')!.index;
    // --apply N takes the N-th line of the list the same flags show: 2 is the move alone, a disabled one with --all.
    const dry = await lspq.run(['actions', 'src/main.ts:5:Circle', '--apply', '2', '--dry-run', ...server], {
      cwd: dir,
    });
    expect([dry.stderr, dry.exit]).toEqual(['lspq: would apply 2: Move to a new file\n', 0]);
    const dryAll = await lspq.run(
      ['actions', 'src/main.ts:5:Circle', '--all', '--apply', String(move), '--dry-run', ...server],
      { cwd: dir },
    );
    expect([dryAll.stderr, dryAll.exit]).toEqual([`lspq: would apply ${move}: Move to a new file\n`, 0]);
    const refused = await lspq.run(['actions', 'src/main.ts:5:Circle', '--all', '--apply', '2', ...server], {
      cwd: dir,
    });
    expect([refused.stderr, refused.exit]).toEqual([
      "lspq: code action 2 ('Convert default export to named export') cannot be applied: Could not find export statement\n",
      2,
    ]);
    expect((await lspq.run(['actions', 'src/main.ts:5:Circle', '--apply', '3', ...server], { cwd: dir })).stderr).toBe(
      "lspq: there is no code action 3 at src/main.ts:5 (2 listed); list them with 'lspq actions'\n",
    );
    const applied = await lspq.run(['actions', 'src/main.ts:5:Circle', '--apply', '1', ...server], { cwd: dir });
    expect(applied.stderr).toBe('lspq: applied 1: Add import from "./circle"\n');
  });

  // typescript-language-server writes each file "Move to a new file" creates, empty, before it sends the edit
  // (TypeScript 7 as well): a dry run left an empty src/areaOf.ts behind, and its diff was no creation git applies.
  // (TypeScript 7 did the same on immer, but offers the refactor here only now and then.)
  test.each([['typescript-language-server', 'src/geometry.ts:3:areaOf']])(
    '%s: "Move to a new file" as a dry run writes nothing, and its diff creates the file; applied, it does',
    async (server, target) => {
      const dir = copy('ts-shapes');
      // A checkout of its own, so the diff's paths are written from it (not from the suite's repository).
      git(dir, 'init', '-q');
      const files = () => readdirSync(join(dir, 'src')).sort();
      const before = files();
      const at = ['actions', target, '--server', server];
      const listed = await lspq.json<{ actions: { index: number; title: string }[] }>(at, { cwd: dir });
      const move = String(listed.actions.find((a) => a.title === 'Move to a new file')?.index);
      for (let round = 0; round < 2; round++) {
        const dry = await lspq.run([...at, '--apply', move, '--dry-run'], { cwd: dir });
        expect([round, dry.exit, dry.stdout.split('\n').slice(0, 4)]).toEqual([
          round,
          0,
          [
            'diff --git a/src/areaOf.ts b/src/areaOf.ts',
            'new file mode 100644',
            '--- /dev/null',
            '+++ b/src/areaOf.ts',
          ],
        ]);
        expect([round, files()]).toEqual([round, before]);
      }
      const dry = await lspq.run([...at, '--apply', move, '--dry-run'], { cwd: dir });
      const created = dry.stdout
        .split('diff --git')[1]!
        .split('\n')
        .filter((l) => l.startsWith('+') && !l.startsWith('+++'));
      const applied = await lspq.run([...at, '--apply', move], { cwd: dir });
      expect([applied.exit, applied.stderr]).toEqual([0, `lspq: applied ${move}: Move to a new file\n`]);
      // Written as the dry run showed it.
      expect(read(dir, 'src/areaOf.ts')).toBe(`${created.map((l) => l.slice(1)).join('\n')}\n`);
    },
  );

  test("gopls's command actions: Add test shown as a diff by a dry run (nothing written); Browse documentation prints the address", async () => {
    const dir = copy('go-shapes');
    git(dir, 'init', '-q');
    const dry = await lspq.run(
      ['actions', 'geometry.go:17:TotalArea', '--kind', 'source.addTest', '--apply', '1', '--dry-run'],
      { cwd: dir },
    );
    expect({ exit: dry.exit, stderr: dry.stderr }).toEqual({
      exit: 0,
      stderr: 'lspq: would apply 1: Add test for TotalArea\n',
    });
    expect(dry.stdout).toStartWith('diff --git a/geometry_test.go b/geometry_test.go\nnew file mode 100644\n');
    expect(dry.stdout).toContain('+func TestTotalArea(t *testing.T) {\n');
    expect(existsSync(join(dir, 'geometry_test.go'))).toBe(false);
    const doc = await lspq.run(['actions', 'geometry.go:17:TotalArea', '--kind', 'source.doc', '--apply', '1'], {
      cwd: dir,
    });
    expect(doc.exit).toBe(0);
    expect(doc.stdout).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/gopls\/[^/]+\/pkg\/example\.com\/shapes\?view=1#TotalArea\n$/,
    );
    expect(doc.stderr).toBe('lspq: applied 1: Browse documentation for func TotalArea (open the address it gave)\n');
  });

  test('TypeScript: organize imports over a range of lines', async () => {
    const dir = copy('ts-shapes');
    const main = read(dir, 'src/main.ts');
    writeFileSync(
      join(dir, 'src/main.ts'),
      main.replace(
        "import { Circle } from './circle';\nimport { Square } from './square';\n",
        "import { Square } from './square';\nimport { Circle } from './circle';\n",
      ),
    );
    const r = await lspq.run(['actions', 'src/main.ts:1-4', '--kind', 'source.organizeImports', '--apply', '1'], {
      cwd: dir,
    });
    expect(r.stderr).toBe('lspq: applied 1: Organize Imports\n');
    // Sorted by module specifier, as TypeScript organizes them.
    expect(read(dir, 'src/main.ts').split('\n').slice(0, 4)).toEqual([
      "import { Circle } from './circle';",
      "import { totalArea } from './geometry';",
      "import type { Shape } from './shape';",
      "import { Square } from './square';",
    ]);
    expect(tsc(dir)).toEqual({ exit: 0, output: '' });
  });

  test('bad choices: no such action, and --dry-run without --apply', async () => {
    const dir = copy('ts-shapes');
    const r = await lspq.run(['actions', 'src/main.ts:1', '--apply', '9'], { cwd: dir });
    expect(r.exit).toBe(2);
    expect(r.stderr).toMatch(
      /^lspq: there is no code action 9 at src\/main\.ts:1 \(\d+ listed\); list them with 'lspq actions'\n$/,
    );
    expect((await lspq.run(['actions', 'src/main.ts:1', '--dry-run'], { cwd: dir })).stderr).toBe(
      'lspq: --dry-run goes with --apply N or --apply-preferred\n',
    );
  });
});

describe('writing all or nothing (a fake server that misbehaves on purpose)', () => {
  const fake = (server: string) => {
    const dir = fakeProject('edits', server);
    scratch.push(dir);
    return dir;
  };

  test('the edit lands in every file it names', async () => {
    const dir = fake('well-behaved');
    expect((await lspq.run(['rename', 'a.fake:1:1', 'howdy'], { cwd: dir })).stdout).toBe(
      'a.fake: 1 edit\nb.fake: 1 edit\n',
    );
    expect([read(dir, 'a.fake'), read(dir, 'b.fake')]).toEqual(['howdy a\n', 'howdy b\n']);
  });

  test('a file changed by another program while the edit was computed: exit 3, nothing written', async () => {
    const dir = fake('edited-during-rename');
    const r = await lspq.run(['rename', 'a.fake:1:1', 'howdy'], { cwd: dir });
    expect(r).toEqual({
      stdout: '',
      stderr: `lspq: ${join(dir, 'a.fake')} changed since the server computed the edit; nothing was written (run the command again)\n`,
      exit: 3,
    });
    expect([read(dir, 'a.fake'), read(dir, 'b.fake')]).toEqual(['hello a\nchanged by another program\n', 'hello b\n']);
  });

  test("a code action's command: the edit the server sends back (workspace/applyEdit) is written, and answered applied", async () => {
    const dir = fake('well-behaved');
    expect((await lspq.run(['actions', 'a.fake:1'], { cwd: dir })).stdout).toBe(
      '1  fqqkzz  command  Fix it by command\n',
    );
    const dry = await lspq.run(['actions', 'a.fake:1', '--apply', '1', '--dry-run'], { cwd: dir });
    expect(dry.stdout).toContain('-hello a\n+fixed a\n');
    expect(read(dir, 'a.fake')).toBe('hello a\n');
    const r = await lspq.run(['actions', 'a.fake:1', '--apply', '1'], { cwd: dir });
    expect(r).toEqual({ stdout: 'a.fake: 1 edit\n', stderr: 'lspq: applied 1: Fix it by command\n', exit: 0 });
    expect(read(dir, 'a.fake')).toBe('fixed a\n');
    expect(
      read(dir, 'applied.log')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).applied),
      // A dry run answers with the plan (applied) and writes nothing: a server that stops on a refusal still shows its edit.
    ).toEqual([true, true]);
  });

  test("a server's refusal of a rename and of its code action's command: all its lines as one, its stack trace left out; text and JSON", async () => {
    const dir = fake('refuses-with-a-stack');
    const reason =
      'renaming "hello" would break b.fake; b.fake:1:1: it is imported there as hello; (rename b.fake\'s import with it)';
    const rename = `a.fake:1:1 cannot be renamed to 'howdy': ${reason}`;
    expect(await lspq.run(['rename', 'a.fake:1:1', 'howdy'], { cwd: dir })).toEqual({
      exit: 2,
      stdout: '',
      stderr: `lspq: ${rename}\n`,
    });
    expect(await lspq.json(['rename', 'a.fake:1:1', 'howdy'], { cwd: dir })).toEqual({
      error: { code: 'cannot_rename', message: rename },
    });
    const action = `fake failed workspace/executeCommand: ${reason}; see 'lspq daemon logs'`;
    expect(await lspq.run(['actions', 'a.fake:1', '--apply', '1'], { cwd: dir })).toEqual({
      exit: 3,
      stdout: '',
      stderr: `lspq: ${action}\n`,
    });
    expect(await lspq.json(['actions', 'a.fake:1', '--apply', '1', '--dry-run'], { cwd: dir })).toEqual({
      error: { code: 'server_failed', message: action },
    });
    expect([read(dir, 'a.fake'), read(dir, 'b.fake')]).toEqual(['hello a\n', 'hello b\n']);
  });

  test('a read-only second file: exit 3, the first file restored', async () => {
    const dir = fake('well-behaved');
    chmodSync(join(dir, 'b.fake'), 0o444);
    const r = await lspq.run(['rename', 'a.fake:1:1', 'howdy'], { cwd: dir });
    expect(r.exit).toBe(3);
    expect(r.stderr).toBe(
      `lspq: could not write ${join(dir, 'b.fake')} (read-only); nothing was changed (1 file(s) written before it were restored)\n`,
    );
    expect([read(dir, 'a.fake'), read(dir, 'b.fake')]).toEqual(['hello a\n', 'hello b\n']);
  });
});
