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
