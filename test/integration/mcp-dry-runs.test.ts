/**
 * An MCP edit tool writes only with `apply: true`, whatever else a call
 * holds: its arguments may come from a model that a prompt shaped. Every
 * edit tool is called with each of its inputs, and with all of them at
 * once, without `apply`; the tree stays as it was, byte for byte. A word
 * that looks like a flag is a file's name. With `apply: true` the edit is
 * made once and answered with the summary a dry run gives, marked written.
 * Driven by the official SDK's client over stdio, on pyright and ruff.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Lspq, lspqArgv, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const dir = scratchDir('mcp-dry');
const FILES: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "p"\nversion = "0"\n',
  'main.py': 'import os\nimport sys\nfrom helper import greet\n\nprint(greet(sys.argv[0]))\n',
  'helper.py': 'def greet(name):\n    return  "hi " +name\n',
};
for (const [path, text] of Object.entries(FILES)) writeFileSync(join(dir, path), text);

let client: Client;
beforeAll(async () => {
  const [command, ...args] = lspqArgv();
  const transport = new StdioClientTransport({ command: command!, args: [...args, 'mcp'], cwd: dir, env: lspq.env() });
  client = new Client({ name: 'lspq-test', version: '1.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client.close();
  expect(await lspq.stop()).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

/** Every file under the project with its bytes: what a dry run must leave as it was. */
function tree(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (name === '__pycache__') continue;
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'latin1');
    }
  };
  walk(dir);
  return out;
}

type Result = Awaited<ReturnType<Client['callTool']>>;
const text = (r: Result) => (r.content as { type: string; text: string }[])[0]!.text;

/** A patch of helper.py that introduces nothing: apply writes it only with apply: true. */
const TIDY =
  '--- a/helper.py\n+++ b/helper.py\n@@ -1,2 +1,2 @@\n def greet(name):\n-    return  "hi " +name\n+    return "hi " + name\n';

/** A value for each input a tool may take, the kind a model would give; a flag-like word where it would hurt most. */
const VALUES: Record<string, Record<string, unknown>> = {
  rename: { target: 'helper.py:1:greet', newName: 'welcome' },
  mv: { old: 'helper.py', new: 'greeting.py' },
  actions: { target: 'main.py:1:os', action: '1', kind: 'quickfix' },
  fmt: { files: ['helper.py'], range: '1-2' },
  apply: { patch: TIDY },
};

function valueFor(tool: string, name: string, schema: { type?: string; enum?: string[] }): unknown {
  if (VALUES[tool]![name] !== undefined) return VALUES[tool]![name];
  if (schema.type === 'boolean') return true;
  if (schema.type === 'integer' || schema.type === 'number') return name === 'timeout' ? 60 : 1;
  if (schema.type === 'array') return ['--write'];
  if (schema.enum) return schema.enum[0];
  return name === 'timeout' ? '60' : name === 'server' ? 'pyright' : '1';
}

describe.each(['rename', 'mv', 'actions', 'fmt', 'apply'])('%s without apply writes nothing', (tool) => {
  test('with each of its inputs, and with all of them at once', async () => {
    const before = tree();
    const { tools } = await client.listTools();
    const declared = tools.find((t) => t.name === tool)!;
    const properties = declared.inputSchema.properties as Record<string, { type?: string; enum?: string[] }>;
    const names = Object.keys(properties).filter((k) => k !== 'apply');
    expect(names.length).toBeGreaterThan(1);
    const base = VALUES[tool]!;
    const calls = [
      ...names.map((name) => ({ ...base, [name]: valueFor(tool, name, properties[name]!) })),
      Object.fromEntries(names.map((name) => [name, valueFor(tool, name, properties[name]!)])),
      { ...base, apply: false },
    ];
    for (const args of calls) {
      await client.callTool({ name: tool, arguments: args });
      expect({ args, tree: tree() }).toEqual({ args, tree: before });
    }
  });
});

test('a flag-like word is a file name: fmt with files ["--write", "helper.py"] writes nothing', async () => {
  const before = tree();
  const r = await client.callTool({ name: 'fmt', arguments: { files: ['--write', 'helper.py'] } });
  expect([r.isError, text(r)]).toEqual([
    true,
    `${join(dir, '--write')} does not exist; check the path (relative paths are from the current directory)`,
  ]);
  expect(tree()).toEqual(before);
});

test('actions with apply-preferred and no apply: the diff, nothing written; with apply: written once', async () => {
  const before = tree();
  const dry = await client.callTool({
    name: 'actions',
    arguments: { target: 'main.py:1:os', applyPreferred: true },
  });
  expect(dry.isError).toBeFalsy();
  expect(
    text(dry)
      .split('\n')
      .filter((l) => /^[-+][^-+]/.test(l)),
  ).toEqual(['-import os']);
  expect(tree()).toEqual(before);
  const done = await client.callTool({
    name: 'actions',
    arguments: { target: 'main.py:1:os', applyPreferred: true, apply: true },
  });
  expect(done.isError).toBeFalsy();
  expect(readFileSync(join(dir, 'main.py'), 'utf8')).toBe(
    'import sys\nfrom helper import greet\n\nprint(greet(sys.argv[0]))\n',
  );
  writeFileSync(join(dir, 'main.py'), FILES['main.py']!);
});

test('apply: without apply: true the check alone; with it, the patch written once', async () => {
  const dry = await client.callTool({ name: 'apply', arguments: { patch: TIDY } });
  expect(dry.isError).toBeFalsy();
  expect((dry.structuredContent as { written: boolean }).written).toBe(false);
  expect(readFileSync(join(dir, 'helper.py'), 'utf8')).toBe(FILES['helper.py']!);
  const done = await client.callTool({ name: 'apply', arguments: { patch: TIDY, apply: true } });
  expect(done.structuredContent as { written: boolean; changed: string[] }).toMatchObject({
    written: true,
    changed: ['helper.py'],
  });
  expect(readFileSync(join(dir, 'helper.py'), 'utf8')).toBe('def greet(name):\n    return "hi " + name\n');
  // Applied again, it no longer fits the file: a tool error naming the hunk, nothing written.
  const again = await client.callTool({ name: 'apply', arguments: { patch: TIDY, apply: true } });
  expect([again.isError, text(again)]).toEqual([
    true,
    'the patch does not apply: helper.py hunk 1 (@@ -1,2 +1,2 @@) expects "    return  \\"hi \\" +name" at line 2, where the file has "    return \\"hi \\" + name"',
  ]);
  writeFileSync(join(dir, 'helper.py'), FILES['helper.py']!);
});

test('rename applied: the dry run’s summary, marked written', async () => {
  const args = { target: 'helper.py:1:greet', newName: 'welcome' };
  const dry = await client.callTool({ name: 'rename', arguments: args });
  expect((dry.structuredContent as { applied: boolean }).applied).toBe(false);
  const done = await client.callTool({ name: 'rename', arguments: { ...args, apply: true } });
  expect(done.isError).toBeFalsy();
  expect((done.structuredContent as { applied: boolean; files: { path: string }[] }).applied).toBe(true);
  expect((done.structuredContent as { files: { path: string }[] }).files.map((f) => f.path).sort()).toEqual([
    'helper.py',
    'main.py',
  ]);
  expect(readFileSync(join(dir, 'helper.py'), 'utf8')).toStartWith('def welcome(name):');
  expect(readFileSync(join(dir, 'main.py'), 'utf8')).toContain('print(welcome(sys.argv[0]))');
});

test('lspq mcp refuses the flags it would ignore; --root must be a folder', async () => {
  for (const flag of ['--server', '--limit']) {
    const r = await lspq.run(['mcp', flag, 'x'], { cwd: dir });
    expect([r.exit, r.stderr]).toEqual([2, `lspq: unknown flag '${flag}' for 'lspq mcp'; see 'lspq mcp --help'\n`]);
  }
  for (const flag of ['--json', '--no-daemon']) {
    const r = await lspq.run(['mcp', flag], { cwd: dir });
    expect([r.exit, r.stderr]).toEqual([2, `lspq: unknown flag '${flag}' for 'lspq mcp'; see 'lspq mcp --help'\n`]);
  }
  const r = await lspq.run(['mcp', '--root', 'nowhere'], { cwd: dir });
  expect([r.exit, r.stderr]).toEqual([2, 'lspq: --root nowhere: no such folder\n']);
});

test('inputs as JSON has them: camelCase keys (kebab-case accepted, not both), numbers as numbers, what is required listed', async () => {
  const { tools } = await client.listTools();
  const rename = tools.find((t) => t.name === 'rename')!.inputSchema as {
    properties: Record<string, { type: string }>;
    required?: string[];
    anyOf?: { required: string[] }[];
  };
  expect([rename.required, rename.anyOf]).toEqual([['newName'], [{ required: ['target'] }, { required: ['symbol'] }]]);
  expect(Object.keys(rename.properties)).not.toContain('allowOutside');
  expect([rename.properties.timeout?.type, rename.properties.limit?.type]).toEqual(['number', 'integer']);
  const mv = tools.find((t) => t.name === 'mv')!.inputSchema as { required?: string[] };
  expect(mv.required).toEqual(['old', 'new']);
  const calls = tools.find((t) => t.name === 'calls')!.inputSchema as { properties: Record<string, { type: string }> };
  expect(calls.properties.depth?.type).toBe('integer');
  // A number as a number; the kebab-case key as well as the camelCase one; both at once is refused.
  const byNumber = await client.callTool({ name: 'refs', arguments: { target: 'helper.py:1:welcome', limit: 1 } });
  expect((byNumber.structuredContent as { locations: unknown[] }).locations.length).toBe(1);
  const kebab = await client.callTool({
    name: 'rename',
    arguments: { target: 'helper.py:1:welcome', 'new-name': 'hello' },
  });
  expect(kebab.structuredContent as { newName: string; applied: boolean }).toMatchObject({
    newName: 'hello',
    applied: false,
  });
  const both = await client.callTool({
    name: 'rename',
    arguments: { target: 'helper.py:1:welcome', 'new-name': 'a', newName: 'b' },
  });
  expect([both.isError, text(both)]).toEqual([true, 'lspq rename: new-name: given also as newName; give one']);
});

describe('the workspace is pinned when lspq mcp starts: no call reaches outside it', () => {
  // The server's root (pyproject.toml) is the folder above the pinned one: an edit there would land outside.
  const top = scratchDir('mcp-pinned');
  const pinned = join(top, 'sub');
  const outside = join(top, 'outside');
  mkdirSync(pinned);
  mkdirSync(outside);
  writeFileSync(join(top, 'pyproject.toml'), '[project]\nname = "p"\nversion = "0"\n');
  writeFileSync(join(pinned, 'lib.py'), 'def greet(name):\n    return name\n');
  writeFileSync(join(top, 'use.py'), 'from sub.lib import greet\n\ngreet("x")\n');
  writeFileSync(join(outside, 'secret.py'), 'TOKEN = 1\n');
  symlinkSync(outside, join(pinned, 'linked'));
  const before = () =>
    ['sub/lib.py', 'use.py', 'outside/secret.py'].map((p) => readFileSync(join(top, p), 'utf8')).join('|');
  let pinnedClient: Client;
  beforeAll(async () => {
    const [command, ...args] = lspqArgv();
    pinnedClient = new Client({ name: 'lspq-test', version: '1.0.0' });
    await pinnedClient.connect(
      new StdioClientTransport({
        command: command!,
        args: [...args, 'mcp', '--root', pinned],
        cwd: top,
        env: lspq.env(),
      }),
    );
  });
  afterAll(async () => {
    await pinnedClient.close();
    rmSync(top, { recursive: true, force: true });
  });

  test('root, cwd and allowOutside are no inputs of any tool', async () => {
    const was = before();
    for (const extra of [{ root: '/' }, { cwd: top }, { allowOutside: true }]) {
      const r = await pinnedClient.callTool({
        name: 'rename',
        arguments: { target: 'lib.py:1:greet', newName: 'hello', apply: true, ...extra },
      });
      expect([r.isError, text(r)]).toEqual([
        true,
        `lspq rename: arguments: Unrecognized key: "${Object.keys(extra)[0]}"`,
      ]);
    }
    expect(before()).toBe(was);
  });

  test('a path outside it, by .., an absolute path or a link, is refused, read or written', async () => {
    const was = before();
    const refused = `is outside the workspace this MCP server was started for (${pinned}); start another in that folder (lspq mcp --root DIR)`;
    for (const [name, args, path] of [
      ['def', { target: '../use.py:3:greet' }, '../use.py'],
      ['hover', { target: `${outside}/secret.py:1:TOKEN` }, `${outside}/secret.py`],
      ['symbols', { input: 'linked/secret.py' }, 'linked/secret.py'],
      ['mv', { old: 'lib.py', new: 'linked/lib.py', apply: true }, 'linked/lib.py'],
      ['fmt', { files: ['linked/secret.py'], apply: true }, 'linked/secret.py'],
    ] as const) {
      const r = await pinnedClient.callTool({ name, arguments: args });
      expect([name, r.isError, text(r)]).toEqual([name, true, `lspq ${name}: ${path} ${refused}`]);
    }
    expect(before()).toBe(was);
  });

  test('an edit whose server reaches above it (its root is the folder above) is refused whole', async () => {
    const was = before();
    const r = await pinnedClient.callTool({
      name: 'rename',
      arguments: { target: 'lib.py:1:greet', newName: 'hello', apply: true },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe(
      `the edit would change ${join(top, 'use.py')}, outside the workspace this MCP server was started for; nothing was written (start one there: lspq mcp --root DIR)`,
    );
    expect(before()).toBe(was);
  });
});
