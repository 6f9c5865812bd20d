/**
 * Answers sized for an agent, on published projects: hover's documentation
 * cleaned of what only a markdown renderer needs (pyright's &nbsp;
 * indentation, blank runs) with code kept exactly; symbols -w with the
 * project's matches, gopls's standard-library ones left out and counted
 * (--deps lists them after the project's). diag's are in diag.test.ts,
 * MCP's tools/list in mcp.test.ts.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { Lspq, scratchDir } from '../helpers/lspq';
import { attrsAt, muxAt, xSyncAt } from '../helpers/published';

const lspq = new Lspq();
const attrs = attrsAt(scratchDir('answers-attrs'));
const xsync = xSyncAt(scratchDir('answers-xsync'));
const mux = muxAt(scratchDir('answers-mux'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of [attrs, xsync, mux]) rmSync(dir, { recursive: true, force: true });
});

describe('hover: documentation as text, code as written', () => {
  test("pyright on attrs's evolve: its &nbsp; indentation as spaces, no hard-break blanks; the same in JSON", async () => {
    const EVOLVE = [
      '```python',
      '(function) def evolve(...) -> Unknown',
      '```',
      '---',
      'Create a new instance, based on the first positional argument with',
      '\\*changes\\* applied.',
      '',
      'Args:',
      '',
      '    inst:',
      '        Instance of a class with \\*attrs\\* attributes. \\*inst\\* must be passed',
      'as a positional argument.',
      '',
      '    changes:',
      '        Keyword changes in the new copy.',
      '',
      'Returns:',
      '    A copy of inst with \\*changes\\* incorporated.',
      '',
      'Raises:',
      '    TypeError:',
      "        If \\*attr\\_name\\* couldn't be found in the class `__init__`.",
      '',
      '    attrs.exceptions.NotAnAttrsClassError:',
      '        If \\*cls\\* is not an \\*attrs\\* class.',
    ].join('\n');
    const r = await lspq.run(['hover', 'src/attr/_make.py:563:evolve'], { cwd: attrs });
    expect([r.stdout, r.exit]).toEqual([`${EVOLVE}\n`, 0]);
    const json = await lspq.json<{ contents: string; server: string }>(['hover', 'src/attr/_make.py:563:evolve'], {
      cwd: attrs,
    });
    expect([json.server, json.contents]).toEqual(['pyright', EVOLVE]);
  });

  test("gopls on x/sync's errgroup.Group: the struct's blank lines kept, the blank run after its documentation made one", async () => {
    const r = await lspq.run(['hover', 'errgroup/errgroup.go:25:Group'], { cwd: xsync });
    expect([r.stdout, r.exit]).toEqual([
      [
        '```go',
        'type Group struct { // size=64 (0x40)',
        '\tcancel func(error)',
        '',
        '\twg sync.WaitGroup',
        '',
        '\tsem chan token',
        '',
        '\terrOnce sync.Once',
        '\terr     error',
        '}',
        '```',
        '',
        '---',
        '',
        'A Group is a collection of goroutines working on subtasks that are part of the same overall task.',
        '',
        'A zero Group is valid, has no limit on the number of active goroutines, and does not cancel on error.',
        '',
        '```go',
        'func (g *Group) Go(f func() error)',
        'func (g *Group) SetLimit(n int)',
        'func (g *Group) TryGo(f func() error) bool',
        'func (g *Group) Wait() error',
        'func (g *Group) done()',
        '```',
        '',
        '---',
        '',
        '[`errgroup.Group` on pkg.go.dev](https://pkg.go.dev/golang.org/x/sync/errgroup#Group)',
        '',
      ].join('\n'),
      0,
    ]);
  });
});

describe("symbols -w: the project's matches; dependencies' with --deps, after them", () => {
  test("gorilla/mux's Matcher: 62 of gopls's 100 are the project's, the 38 of the standard library counted", async () => {
    const r = await lspq.run(['symbols', '-w', 'Matcher'], { cwd: mux });
    const listed = r.stdout.split('\n').filter(Boolean);
    const cap =
      "cut by the server: gopls answers at most 100 symbols, so more may match 'Matcher' than the 62 shown; narrow the query";
    expect([listed.length, listed[0], listed.slice(-2), r.exit]).toEqual([
      64,
      'route.go:171:6: interface matcher (github.com/gorilla/mux)',
      ['38 more in dependencies: --deps', cap],
      0,
    ]);
    // Every place listed is the project's: a path from here, never the standard library's.
    expect(listed.slice(0, 62).filter((l) => l.startsWith('/'))).toEqual([]);
    const json = await lspq.json(['symbols', '-w', 'Matcher'], { cwd: mux });
    expect(json).toMatchObject({ total: 62, truncated: true, inDependencies: 38 });

    const all = await lspq.run(['symbols', '-w', 'Matcher', '--deps'], { cwd: mux });
    const every = all.stdout.split('\n').filter(Boolean);
    expect([every.length, every.slice(0, 62), every.slice(62, 100).every((l) => l.startsWith('/')), all.exit]).toEqual([
      101,
      listed.slice(0, 62),
      true,
      0,
    ]);
    expect(every.some((l) => l.includes('ChaCha8.AppendBinary'))).toBe(true);
  });

  test('a name only the standard library holds: nothing found in the project, its matches there said', async () => {
    const r = await lspq.run(['symbols', '-w', 'ChaCha8'], { cwd: mux });
    // gopls stopped at 100, all the standard library's: the project may hold one it left out.
    expect([r.stdout, r.exit, r.stderr.split('\n').at(-2)]).toEqual([
      "cut by the server: gopls answers at most 100 symbols, so more may match 'ChaCha8' than the 0 shown; narrow the query\n",
      1,
      "lspq: no symbols in the workspace match 'ChaCha8'; 100 in dependencies: --deps",
    ]);
  });

  test('--deps without -w is bad input', async () => {
    const r = await lspq.run(['symbols', 'route.go', '--deps'], { cwd: mux });
    expect([r.stdout, r.stderr, r.exit]).toEqual([
      '',
      'lspq: --deps widens a search of the workspace: lspq symbols -w QUERY --deps\n',
      2,
    ]);
  });
});
