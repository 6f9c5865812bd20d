/**
 * The layout's rules, measured from the sources' imports (bench/layout.ts
 * measures the same and more): no import circle between files, the LSP
 * layer knowing nothing of lspq's answers, the engine nothing of the
 * commands, and code that runs in the daemon free of the command's
 * process. Files are cut by meaning, not by a count of lines: none is held.
 */
import { expect, test } from 'bun:test';
import { relative } from 'node:path';
import { circles, importGraph } from '../../bench/layout';
import { COMMANDS } from '../../src/commands/list';
import { REPO } from '../helpers/lspq';

const graph = importGraph();
const rel = (f: string) => relative(REPO, f);
const importsOf = (prefix: string) =>
  [...graph].filter(([f]) => rel(f).startsWith(prefix)).flatMap(([f, to]) => to.map((t) => [rel(f), rel(t)] as const));

test('no import circle between files, type-only imports included', () => {
  expect(circles(graph).map((c) => c.map(rel))).toEqual([]);
});

test("the LSP layer imports nothing of lspq's answers, commands, engine or renderers", () => {
  const above = ['src/answers/', 'src/commands/', 'src/engine/', 'src/render/', 'src/daemon/', 'src/cli/'];
  expect(importsOf('src/lsp/').filter(([, to]) => above.some((p) => to.startsWith(p)))).toEqual([]);
});

test('the engine imports nothing of the commands: it is given their handlers, and what two commands share lives in it', () => {
  expect(importsOf('src/engine/').filter(([, to]) => to.startsWith('src/commands/'))).toEqual([]);
});

test("code that runs in the daemon imports nothing of the command's process", () => {
  // A command declared to run in the command's own process (daemon control) may use its socket client.
  const here = Object.entries(COMMANDS)
    .filter(([, c]) => c.process === 'here')
    .map(([name]) => `src/commands/${name}/`);
  const daemonSide = [
    'src/engine/',
    'src/daemon/',
    'src/lsp/',
    'src/commands/',
    'src/answers/',
    'src/render/',
    'src/common/',
  ];
  const crossing = [...graph]
    .filter(([f]) => daemonSide.some((p) => rel(f).startsWith(p)) && !here.some((p) => rel(f).startsWith(p)))
    .flatMap(([f, to]) => to.filter((t) => rel(t).startsWith('src/cli/')).map((t) => [rel(f), rel(t)]))
    // in-process.ts runs the engine in the command's process and shows its progress there.
    .filter(([f]) => f !== 'src/commands/in-process.ts');
  expect(crossing).toEqual([]);
});

test('a command is declared in its own folder and list.ts: the MCP tools name none of them', () => {
  // The tools derive from each command's `mcp` declaration: a new command touches its own folder and list.ts.
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  const tools = readFileSync(`${REPO}/src/commands/mcp/tools.ts`, 'utf8');
  const withTools = Object.entries(COMMANDS)
    .filter(([, c]) => c.mcp)
    .map(([name]) => name);
  const named = withTools.filter((name) => new RegExp(`['"\`]${name}['"\`]`).test(tools));
  expect(named).toEqual([]);
  expect(
    Object.entries(COMMANDS)
      .filter(([, c]) => c.mcp)
      .map(([name, c]) => `${name}:${c.mcp!.kind}`),
  ).toEqual([
    'def:question',
    'typedef:question',
    'impls:question',
    'refs:question',
    'hover:question',
    'signature:question',
    'symbols:question',
    'calls:question',
    'actions:edit',
    'fmt:edit',
    'rename:edit',
    'mv:edit',
    'diag:question',
    'apply:edit',
  ]);
});

/** The sources under `prefix`, by path from the repository. */
function sources(prefix: string): [string, string][] {
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  return [...graph.keys()].filter((f) => rel(f).startsWith(prefix)).map((f) => [rel(f), readFileSync(f, 'utf8')]);
}

/** A source without its comments and imports (whose `as` renames), where a cast is what `as` says. */
const code = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/^(import|export) [^;]*? from [^;]*;$/gm, '');

/** Each call of `name(...)` in `text`, with the word after it and the parentheses around it (`as` where its result is cast). */
function callsOf(name: string, text: string): { call: string; after: string }[] {
  const found: { call: string; after: string }[] = [];
  for (const m of text.matchAll(new RegExp(`\\b${name}(<[^>()]*>)?\\(`, 'g'))) {
    let depth = 0;
    let i = m.index + m[0].length - 1;
    for (; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) break;
    }
    found.push({
      call: text.slice(m.index, i + 1),
      after:
        text
          .slice(i + 1)
          .replace(/^[\s)]*/, '')
          .split(/\W/)[0] ?? '',
    });
  }
  return found;
}

test('a question reaches its handler by its typed key: no `as never` in dispatch, no cast on the way', () => {
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  expect(readFileSync(`${REPO}/src/engine/dispatch.ts`, 'utf8')).not.toContain('as never');
  // The path a question takes (command run, command path, daemon or here, engine) casts nothing but `as const`.
  const path = [
    'src/commands/define.ts',
    'src/commands/run-command-line.ts',
    'src/commands/in-process.ts',
    'src/commands/handlers.ts',
    'src/commands/operations.ts',
    'src/daemon/questions.ts',
    'src/engine/local.ts',
    'src/engine/dispatch.ts',
  ];
  const casts = path.flatMap((f) =>
    [...code(readFileSync(`${REPO}/${f}`, 'utf8')).matchAll(/[\w)\]}>]\s+as\s+(?!const\b)\S+/g)].map(
      (m) => `${f}: ${m[0]}`,
    ),
  );
  expect(casts).toEqual([]);
});

test("no command casts an answer where it asks: each has the type the operations' table names", () => {
  const cast = sources('src/commands/').flatMap(([f, text]) =>
    ['ask', 'answer', 'dispatch'].flatMap((name) =>
      callsOf(name, text)
        .filter((c) => c.after === 'as')
        .map((c) => `${f}: ${c.call.slice(0, 60)}`),
    ),
  );
  expect(cast).toEqual([]);
});

test('the cast checks see a cast answer, across lines too, and not an import that renames', () => {
  expect(
    [...code("import { a as b } from 'c';\n// x as y\nconst v = f() as T;").matchAll(/[\w)\]}>]\s+as\s+\S+/g)].map(
      (m) => m[0],
    ),
  ).toEqual([') as T;']);
  expect(callsOf('ask', "const r = (await ask({ op: 'hover', target: f(x) },\n args)) as HoverResult;")).toEqual([
    { call: "ask({ op: 'hover', target: f(x) },\n args)", after: 'as' },
  ]);
  expect(callsOf('ask', "const r = await ask({ op: 'hover' }, args) as HoverResult;")).toEqual([
    { call: "ask({ op: 'hover' }, args)", after: 'as' },
  ]);
});
