/**
 * lspq mcp, driven by the official SDK's own client over stdio: the tools
 * listed with their input and output schemas, def answered as structured
 * content (the --json answer) and text (the lines), a bad target a tool
 * error with the one-line message, a rename a dry run unless apply: true,
 * and three sessions at once answered by one gopls through the daemon the
 * shell uses.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FIXTURES, Lspq, lspqArgv, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const dir = scratchDir('mcp');
cpSync(join(FIXTURES, 'go-shapes'), dir, { recursive: true });
const clients: Client[] = [];
afterAll(async () => {
  for (const c of clients) await c.close();
  expect(await lspq.stop()).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

async function session(): Promise<Client> {
  const [command, ...args] = lspqArgv();
  const transport = new StdioClientTransport({
    command: command!,
    args: [...args, 'mcp'],
    cwd: dir,
    env: lspq.env(),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'lspq-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type Result = Awaited<ReturnType<Client['callTool']>>;
const text = (r: Result) => (r.content as { type: string; text: string }[])[0]!.text;

describe('one session', () => {
  let client: Client;

  test('lists a tool per question and per edit, each with its input and output schema, in 12 KB', async () => {
    client = await session();
    const { tools } = await client.listTools();
    // Questions, then edits, in the command list's order: each command declares its own tool.
    expect(tools.map((t) => t.name)).toEqual([
      'def',
      'typedef',
      'impls',
      'refs',
      'hover',
      'signature',
      'symbols',
      'calls',
      'diag',
      'actions',
      'fmt',
      'rename',
      'mv',
      'apply',
    ]);
    const def = tools.find((t) => t.name === 'def')!;
    expect(Object.keys(def.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['target', 'symbol', 'body']));
    // The workspace is the server's, pinned when it started: no tool chooses another.
    for (const tool of tools)
      for (const key of ['cwd', 'root', 'allowOutside'])
        expect([tool.name, key in (tool.inputSchema.properties ?? {})]).toEqual([tool.name, false]);
    expect(def.outputSchema?.type).toBe('object');
    // Read before a session's first question: what several tools take is said once, in the instructions.
    expect(JSON.stringify({ tools }).length).toBeLessThanOrEqual(12_000);
    expect(tools.map((t) => t.outputSchema)).toEqual(tools.map(() => ({ type: 'object' })));
    expect(def.description).toBe('definition(s) of the symbol at TARGET.');
    // Never negative is said once, in the instructions; the server checks it.
    expect(def.inputSchema.properties?.timeout).toEqual({ type: 'number' });
    const instructions = client.getInstructions() ?? '';
    for (const said of [
      `lspq asks the language servers of ${dir} about its code; paths are relative to it.`,
      'its JSON Schema: lspq schema NAME',
      "target: FILE:LINE:COL, FILE:LINE:NAME, FILE:LINE or 'FILE:LINE:TEXT<|>TEXT';",
      'timeout: Give up after this many seconds (default 60; exit 3);',
      'Every number input is a count or seconds, never negative.',
    ])
      expect([said, instructions.includes(said)]).toEqual([said, true]);
    expect(instructions.length).toBeLessThanOrEqual(1_500);
    expect(Object.keys(tools.find((t) => t.name === 'rename')!.inputSchema.properties ?? {})).toContain('apply');
    expect(
      (tools.find((t) => t.name === 'diag')!.inputSchema.properties as Record<string, { enum?: string[] }>).severity!
        .enum,
    ).toEqual(['error', 'warning', 'info', 'hint']);
  });

  test('def: the --json answer as structured content, the lines as text; asked again, the same', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await client.callTool({ name: 'def', arguments: { target: 'main.go:7:TotalArea' } });
      expect(r.isError).toBeFalsy();
      const answer = r.structuredContent as {
        server: string;
        locations: { path: string; line: number; column: number }[];
      };
      expect([answer.server, answer.locations.map((l) => `${l.path}:${l.line}:${l.column}`)]).toEqual([
        'gopls',
        ['geometry.go:17:6'],
      ]);
      expect(text(r)).toBe('geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {');
    }
  });

  test('nothing found: an answer (an empty list), its text the line that says what was not found', async () => {
    const r = await client.callTool({ name: 'refs', arguments: { target: 'main.go:5:main' } });
    expect([r.isError ?? false, (r.structuredContent as { total: number }).total, text(r)]).toEqual([
      false,
      0,
      'no references to main (main.go:5:6)',
    ]);
  });

  test('a cut answer says so: the text ends with the line, the structured result is truncated with its total', async () => {
    const refs = [
      'geometry.go:5:19: func areaOf(shape Shape) float64 {  (in areaOf)',
      'geometry.go:9:24: func sumAreas(shapes []Shape) float64 {  (in sumAreas)',
      'geometry.go:17:25: func TotalArea(shapes []Shape, unit Unit) string {  (in TotalArea)',
      'main.go:6:14: shapes := []Shape{Circle{Radius: 1}, Square{Side: 2}}  (in main)',
    ];
    const cut = await client.callTool({ name: 'refs', arguments: { target: 'shape.go:4:Shape', limit: 2 } });
    const answer = cut.structuredContent as { total: number; truncated: boolean; locations: unknown[] };
    expect([cut.isError ?? false, answer.total, answer.truncated, answer.locations.length, text(cut)]).toEqual([
      false,
      4,
      true,
      2,
      `${refs.slice(0, 2).join('\n')}\n2 of 4 shown: --limit 0 for all`,
    ]);
    const all = await client.callTool({ name: 'refs', arguments: { target: 'shape.go:4:Shape', limit: 0 } });
    const whole = all.structuredContent as { total: number; truncated: boolean };
    expect([whole.total, whole.truncated, text(all)]).toEqual([4, false, refs.join('\n')]);
    const symbols = await client.callTool({ name: 'symbols', arguments: { input: 'geometry.go', limit: 2 } });
    expect([(symbols.structuredContent as { truncated: boolean }).truncated, text(symbols).split('\n').at(-1)]).toEqual(
      [true, '2 of 3 shown: --limit 0 for all'],
    );
  });

  test('a bad target and a bad argument: tool errors with the one-line message', async () => {
    const bad = await client.callTool({ name: 'def', arguments: { target: 'main.go:7:Nope' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toStartWith("'Nope' is not on line 7 of main.go:");
    const wrong = await client.callTool({ name: 'def', arguments: { target: 7 } });
    expect([wrong.isError, text(wrong)]).toEqual([
      true,
      'lspq def: target: Invalid input: expected string, received number',
    ]);
    const missing = await client.callTool({ name: 'def', arguments: { target: 'nowhere.go:1:1' } });
    expect([missing.isError, text(missing)]).toEqual([
      true,
      `${join(dir, 'nowhere.go')} does not exist; check the path (relative paths are from the current directory)`,
    ]);
  });

  test('diag takes patch, the diff itself: what it would introduce, nothing written; a file outside the workspace refused', async () => {
    const before = readFileSync(join(dir, 'geometry.go'), 'utf8');
    const patch = [
      '--- a/geometry.go',
      '+++ b/geometry.go',
      '@@ -17,3 +17,3 @@',
      '-func TotalArea(shapes []Shape, unit Unit) string {',
      '+func TotalArea(shapes []Shape, unit Unit, digits int) string {',
      ' \treturn fmt.Sprintf("%v %s²", sumAreas(shapes), unit)',
      ' }',
      '',
    ].join('\n');
    const { tools } = await client.listTools();
    const diag = tools.find((t) => t.name === 'diag')!;
    expect((diag.inputSchema.properties as Record<string, { type: string }>).patch!.type).toBe('string');
    for (let i = 0; i < 2; i++) {
      const r = await client.callTool({ name: 'diag', arguments: { patch } });
      expect(r.isError).toBeFalsy();
      const answer = r.structuredContent as {
        diagnostics: { path: string; line: number; message: string; new: boolean }[];
        patch: { files: string[] };
      };
      expect(answer.diagnostics.map((d) => [d.path, d.line, d.message.split('\n')[0], d.new])).toEqual([
        ['main.go', 7, 'not enough arguments in call to TotalArea', true],
      ]);
      expect(answer.patch.files).toEqual(['geometry.go']);
      expect(text(r)).toContain('main.go:7:');
    }
    expect(readFileSync(join(dir, 'geometry.go'), 'utf8')).toBe(before);
    writeFileSync(join(dir, '..', 'outside-mcp.go'), 'a\n');
    const outside = await client.callTool({
      name: 'diag',
      arguments: { patch: '--- a/../outside-mcp.go\n+++ b/../outside-mcp.go\n@@ -1 +1 @@\n-a\n+b\n' },
    });
    expect([outside.isError, text(outside)]).toEqual([
      true,
      `the patch touches ${join(dir, '..', 'outside-mcp.go')}, outside the workspace this MCP server was started for (${dir})`,
    ]);
    rmSync(join(dir, '..', 'outside-mcp.go'));
    const bad = await client.callTool({
      name: 'diag',
      arguments: { patch: patch.replace('-func TotalArea(shapes', '-func TotalAreas(shapes') },
    });
    expect([bad.isError, text(bad)]).toEqual([
      true,
      'the patch does not apply: geometry.go hunk 1 (@@ -17,3 +17,3 @@) expects "func TotalAreas(shapes []Shape, unit Unit) string {" at line 17, where the file has "func TotalArea(shapes []Shape, unit Unit) string {"',
    ]);
  });

  test('rename: a dry run unless apply is true; then written', async () => {
    const before = readFileSync(join(dir, 'geometry.go'), 'utf8');
    const dry = await client.callTool({
      name: 'rename',
      arguments: { target: 'geometry.go:17:TotalArea', 'new-name': 'SumOfAreas' },
    });
    expect(dry.isError).toBeFalsy();
    expect(text(dry)).toContain('+func SumOfAreas(shapes []Shape, unit Unit) string {');
    expect(readFileSync(join(dir, 'geometry.go'), 'utf8')).toBe(before);
    const done = await client.callTool({
      name: 'rename',
      arguments: { target: 'geometry.go:17:TotalArea', 'new-name': 'SumOfAreas', apply: true },
    });
    expect(done.isError).toBeFalsy();
    expect(readFileSync(join(dir, 'geometry.go'), 'utf8')).toContain(
      'func SumOfAreas(shapes []Shape, unit Unit) string {',
    );
    expect(readFileSync(join(dir, 'main.go'), 'utf8')).toContain('SumOfAreas(shapes, "cm")');
  });
});

test('three sessions at once: one daemon, one gopls for the root', async () => {
  const sessions = await Promise.all([session(), session(), session()]);
  const answers = await Promise.all(
    sessions.map((s) => s.callTool({ name: 'refs', arguments: { target: 'shape.go:4:Shape' } })),
  );
  for (const a of answers) expect((a.structuredContent as { total: number }).total).toBe(4);
  const status = await lspq.json<{ servers: { id: string; root: string }[] }>(['daemon', 'status']);
  expect(status.servers.map((s) => [s.id, s.root])).toEqual([['gopls', dir]]);
});

test("the MCP Inspector's CLI lists the tools and calls def", async () => {
  // The Inspector starts its server with a bare environment of its own: the test's daemon and configuration are passed.
  const env = lspq.env();
  const serverEnv = [
    'LSPQ_SOCKET',
    'XDG_CONFIG_HOME',
    'XDG_CACHE_HOME',
    'PATH',
    'LSPQ_TOOL_DIRS',
    'NO_COLOR',
    'LSPQ_TRUST',
  ].flatMap(
    // It takes no empty value: no tool folders is a folder that does not exist.
    (key) => ['-e', `${key}=${env[key] || join(lspq.dir, 'none')}`],
  );
  const inspect = async (...args: string[]) => {
    const proc = Bun.spawn(['mcp-inspector', '--cli', ...serverEnv, ...lspqArgv(), 'mcp', ...args], {
      cwd: dir,
      env: lspq.env(),
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [out, exit] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(exit).toBe(0);
    return JSON.parse(out);
  };
  const listed = (await inspect('--method', 'tools/list')) as { tools: { name: string }[] };
  expect(listed.tools.map((t) => t.name)).toContain('hover');
  const called = (await inspect(
    '--method',
    'tools/call',
    '--tool-name',
    'hover',
    '--tool-arg',
    'target=geometry.go:9:sumAreas',
  )) as {
    content: { text: string }[];
    structuredContent: { contents: string };
  };
  expect(called.structuredContent.contents).toStartWith('```go\nfunc sumAreas(shapes []Shape) float64\n```');
  expect(called.content[0]!.text).toStartWith('```go\nfunc sumAreas(shapes []Shape) float64\n```');
  // Answered by the test's own daemon, as a shell command would be.
  const status = await lspq.json<{ servers: { id: string }[] }>(['daemon', 'status']);
  expect(status.servers.map((s) => s.id)).toEqual(['gopls']);
});

test('piped input: every request read is answered before the server exits, however slow the answer', async () => {
  // A daemon of its own, cold: the calls take a gopls start, long after stdin has closed.
  const cold = new Lspq();
  try {
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'hover', arguments: { target: 'geometry.go:9:sumAreas' } },
      },
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'refs', arguments: { target: 'shape.go:4:Shape' } },
      },
    ];
    const proc = Bun.spawn([...lspqArgv(), 'mcp'], {
      cwd: dir,
      env: cold.env(),
      stdin: new TextEncoder().encode(lines.map((l) => `${JSON.stringify(l)}\n`).join('')),
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [out, exit] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    const answers = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result: Record<string, unknown> });
    expect([exit, answers.map((a) => a.id).sort()]).toEqual([0, [1, 2, 3, 4]]);
    const byId = (id: number) => answers.find((a) => a.id === id)!.result;
    expect((byId(2).structuredContent as { contents: string }).contents).toStartWith(
      '```go\nfunc sumAreas(shapes []Shape) float64\n```',
    );
    expect((byId(3).tools as unknown[]).length).toBeGreaterThan(0);
    expect((byId(4).structuredContent as { total: number }).total).toBe(4);
  } finally {
    expect(await cold.stop()).toEqual([]);
  }
});
