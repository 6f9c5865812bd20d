/**
 * lspq hook: the configurations it prints, and `hook run` driven as each
 * agent drives it, on real servers. Claude Code: PreToolUse remembers the
 * file, the edit is made on disk, PostToolUse answers exit 2 with only the
 * problems that edit introduced (its broken caller included) and is silent
 * on a clean edit; without PreToolUse the edit is undone from its own
 * words, else compared with git's index; a file no server reads and a
 * hook input lspq cannot read never reach the model. Cursor: afterFileEdit
 * remembers, stop answers a followup_message, then {} once fixed. opencode:
 * the plugin `lspq hook opencode` prints, loaded and called with Bun's
 * shell as opencode calls it, adds the problems to the edit tool's output.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeProject, git, Lspq, lspqArgv, lspqOnPath, scratchDir, toolsPath } from '../helpers/lspq';
import { cobraAt } from '../helpers/published';
import { checkAnswer } from '../helpers/schema';

const lspq = new Lspq();
const base = scratchDir('hook');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

function project(name: string, files: Record<string, string>): string {
  const dir = join(base, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  return dir;
}

/** `lspq ARGS` with `input` on stdin, as an agent runs its hook. */
async function hook(args: string[], cwd: string, input: unknown) {
  const proc = Bun.spawn([...lspqArgv(), 'hook', ...args], {
    cwd,
    env: lspq.env(),
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  proc.stdin.write(typeof input === 'string' ? input : JSON.stringify(input));
  await proc.stdin.end();
  const [stdout, stderr, exit] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, exit };
}

const TS = {
  'tsconfig.json':
    '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "esnext", "moduleResolution": "bundler" } }\n',
  'src/lib.ts': 'export function scale(x: number): number {\n  return x * 2;\n}\n',
  'src/caller.ts': "import { scale } from './lib';\n\nexport const twice = scale(2);\n",
  'src/old.ts': 'export const old: number = "an old error";\n',
  'README.md': '# a project\n',
};
const SIGNATURE = { old: 'scale(x: number)', new: 'scale(x: number, by: number)' };
const BROKEN = 'src/caller.ts:3:22: error: Expected 2 arguments, but got 1. [ts 2554]';

test('lspq hook lists the agents; each prints its configuration, and where it goes', async () => {
  const list = await lspq.run(['hook']);
  expect(list.exit).toBe(0);
  expect(list.stdout).toContain(
    '  claude    Claude Code: SessionStart, PreToolUse and PostToolUse hooks: lspq hook claude\n',
  );
  expect(list.stdout).toContain('  cursor    Cursor: sessionStart, afterFileEdit and stop hooks: lspq hook cursor\n');
  const claude = await lspq.run(['hook', 'claude']);
  const command = { type: 'command', command: 'lspq hook run --for claude' };
  expect(JSON.parse(claude.stdout)).toEqual({
    hooks: {
      SessionStart: [{ hooks: [command] }],
      PreToolUse: [{ matcher: 'Edit|MultiEdit|Write', hooks: [command] }],
      PostToolUse: [{ matcher: 'Edit|MultiEdit|Write', hooks: [command] }],
    },
  });
  expect(claude.stderr).toContain('.claude/settings.json');
  expect(JSON.parse((await lspq.run(['hook', 'cursor'])).stdout)).toEqual({
    version: 1,
    hooks: {
      sessionStart: [{ command: 'lspq hook run --for cursor' }],
      afterFileEdit: [{ command: 'lspq hook run --for cursor' }],
      stop: [{ command: 'lspq hook run --for cursor' }],
    },
  });
  const json = await lspq.json<{ agents: { agent: string }[] }>(['hook']);
  expect(json.agents.map((a) => a.agent)).toEqual(['claude', 'opencode', 'cursor']);
  expect(await lspq.run(['hook', 'vim'])).toEqual({
    exit: 2,
    stdout: '',
    stderr: "lspq: lspq hook takes claude, opencode, cursor or run, not 'vim'; 'lspq hook' lists them\n",
  });
});

describe('Claude Code (TypeScript 7)', () => {
  const dir = project('claude', TS);
  const lib = join(dir, 'src/lib.ts');
  const event = (name: string, session: string, input: Record<string, unknown>) => ({
    session_id: session,
    hook_event_name: name,
    cwd: dir,
    tool_name: 'Edit',
    tool_input: { file_path: lib, ...input },
    tool_response: { filePath: lib, success: true },
  });
  const edit = { old_string: SIGNATURE.old, new_string: SIGNATURE.new };

  test('PreToolUse, the edit, PostToolUse: exit 2, only the broken caller (not the old error); then a clean edit: silent', async () => {
    expect(await hook(['run', '--for', 'claude'], dir, event('PreToolUse', 's1', edit))).toEqual({
      exit: 0,
      stdout: '',
      stderr: '',
    });
    writeFileSync(lib, TS['src/lib.ts'].replace(SIGNATURE.old, SIGNATURE.new));
    expect(await hook(['run', '--for', 'claude'], dir, event('PostToolUse', 's1', edit))).toEqual({
      exit: 2,
      stdout: '',
      stderr: `lspq: this edit of src/lib.ts introduced 1 error:\n${BROKEN}\n`,
    });
    // lspq's own document, where asked: the schema's.
    const json = await hook(['run', '--for', 'claude', '--json'], dir, event('PostToolUse', 's1', edit));
    const doc = JSON.parse(json.stdout) as { compared: unknown[]; diagnostics: { path: string }[] };
    checkAnswer('hook', doc);
    expect([doc.compared, doc.diagnostics.map((d) => d.path)]).toEqual([
      [{ path: 'src/lib.ts', with: 'the edit undone' }],
      ['src/caller.ts'],
    ]);
    // The next edit fixes the caller: judged against the caller as it was just before it, it introduced nothing.
    const caller = join(dir, 'src/caller.ts');
    const fix = { file_path: caller, old_string: 'scale(2)', new_string: 'scale(2, 2)' };
    await hook(['run', '--for', 'claude'], dir, event('PreToolUse', 's1', fix));
    writeFileSync(caller, TS['src/caller.ts'].replace('scale(2)', 'scale(2, 2)'));
    expect(await hook(['run', '--for', 'claude'], dir, event('PostToolUse', 's1', fix))).toEqual({
      exit: 0,
      stdout: '',
      stderr: '',
    });
    git(dir, 'checkout', '-q', '--', '.');
  });

  test("no PreToolUse: the edit undone from its own words; a Write: compared with git's index", async () => {
    writeFileSync(lib, TS['src/lib.ts'].replace(SIGNATURE.old, SIGNATURE.new));
    expect(await hook(['run', '--for', 'claude'], dir, event('PostToolUse', 's2', edit))).toEqual({
      exit: 2,
      stdout: '',
      stderr: `lspq: this edit of src/lib.ts introduced 1 error (compared with the edit undone):\n${BROKEN}\n`,
    });
    const write = { ...event('PostToolUse', 's3', { content: 'whatever' }), tool_name: 'Write' };
    expect(await hook(['run', '--for', 'claude'], dir, write)).toEqual({
      exit: 2,
      stdout: '',
      stderr: `lspq: this edit of src/lib.ts introduced 1 error (compared with git's index):\n${BROKEN}\n`,
    });
    git(dir, 'checkout', '-q', '--', '.');
  });

  test('a new file with an error: all of it is new; a file no server reads and an unreadable input never reach the model', async () => {
    const created = join(dir, 'src/extra.ts');
    const write = {
      ...event('PreToolUse', 's4', {}),
      tool_name: 'Write',
      tool_input: { file_path: created, content: 'export const extra: number = "x";\n' },
    };
    await hook(['run', '--for', 'claude'], dir, write);
    writeFileSync(created, 'export const extra: number = "x";\n');
    expect(await hook(['run', '--for', 'claude'], dir, { ...write, hook_event_name: 'PostToolUse' })).toEqual({
      exit: 2,
      stdout: '',
      stderr:
        "lspq: this edit of src/extra.ts introduced 1 error:\nsrc/extra.ts:1:14: error: Type 'string' is not assignable to type 'number'. [ts 2322]\n",
    });
    rmSync(created);
    const readme = { ...event('PostToolUse', 's5', {}), tool_input: { file_path: join(dir, 'notes.txt') } };
    writeFileSync(join(dir, 'notes.txt'), 'no server reads this\n');
    expect(await hook(['run', '--for', 'claude'], dir, readme)).toEqual({ exit: 0, stdout: '', stderr: '' });
    expect(await hook(['run', '--for', 'claude'], dir, 'not json')).toEqual({
      exit: 1,
      stdout: '',
      stderr:
        "lspq: the edit was not checked: the claude hook's input is not JSON; lspq hook run reads what the hook hands it on stdin\n",
    });
    rmSync(join(dir, 'notes.txt'));
  });
});

describe.each<{
  server: string;
  files: Record<string, string>;
  file: string;
  old: string;
  new: string;
  broken: string;
}>([
  {
    server: 'gopls',
    files: {
      'go.mod': 'module example.com/hook\n\ngo 1.22\n',
      'lib.go': 'package hook\n\nfunc Scale(x int) int {\n\treturn x * 2\n}\n',
      'caller.go': 'package hook\n\nvar Twice = Scale(2)\n',
    },
    file: 'lib.go',
    old: 'Scale(x int)',
    new: 'Scale(x, by int)',
    broken:
      'caller.go:3:20: error: not enough arguments in call to Scale have (number) want (int, int) [compiler WrongArgCount]',
  },
  {
    server: 'pyright',
    files: {
      'pyproject.toml': '[project]\nname = "p"\nversion = "0"\n',
      'lib.py': 'def scale(x: int) -> int:\n    return x * 2\n',
      'caller.py': 'from lib import scale\n\ntwice = scale(2)\n',
    },
    file: 'lib.py',
    old: 'scale(x: int)',
    new: 'scale(x: int, by: int)',
    broken: 'caller.py:3:9: error: Argument missing for parameter "by" [Pyright reportCallIssue]',
  },
])('Claude Code ($server)', (c) => {
  test('the edit that breaks a caller: exit 2 with it; undone by hand: silent', async () => {
    const dir = project(c.server, c.files);
    const path = join(dir, c.file);
    const input = (name: string) => ({
      session_id: 'g',
      hook_event_name: name,
      tool_name: 'Edit',
      tool_input: { file_path: path, old_string: c.old, new_string: c.new },
    });
    await hook(['run', '--for', 'claude'], dir, input('PreToolUse'));
    writeFileSync(path, c.files[c.file]!.replace(c.old, c.new));
    expect(await hook(['run', '--for', 'claude'], dir, input('PostToolUse'))).toEqual({
      exit: 2,
      stdout: '',
      stderr: `lspq: this edit of ${c.file} introduced 1 error:\n${c.broken}\n`,
    });
    await hook(['run', '--for', 'claude'], dir, input('PreToolUse'));
    writeFileSync(path, c.files[c.file]!);
    expect(await hook(['run', '--for', 'claude'], dir, input('PostToolUse'))).toEqual({
      exit: 0,
      stdout: '',
      stderr: '',
    });
  });
});

describe.each([
  {
    server: 'TypeScript 7',
    files: TS,
    lib: 'src/lib.ts',
    caller: 'src/caller.ts',
    broken: BROKEN,
    later: '\nexport const later: number = "a later error";\n',
  },
  {
    server: 'pyright',
    files: {
      'pyproject.toml': '[project]\nname = "p"\nversion = "0"\n',
      'lib.py': 'def scale(x: int) -> int:\n    return x * 2\n',
      'caller.py': 'from lib import scale\n\ntwice = scale(2)\n',
    },
    lib: 'lib.py',
    caller: 'caller.py',
    broken: 'caller.py:3:9: error: Argument missing for parameter "by" [Pyright reportCallIssue]',
    later: '\nlater: int = "a later error"\n',
  },
])('the state before an edit recalled from what the server said of the disk then ($server)', (c) => {
  const dir = project(`recall-${c.server.replace(/\W/g, '')}`, c.files);
  const lib = join(dir, c.lib);
  const caller = join(dir, c.caller);
  const libText = readFileSync(lib, 'utf8');
  const callerText = readFileSync(caller, 'utf8');
  const signature = libText.includes('x: number') ? SIGNATURE : { old: 'scale(x: int)', new: 'scale(x: int, by: int)' };
  const post = {
    session_id: `recall-${c.server}`,
    hook_event_name: 'PostToolUse',
    cwd: dir,
    tool_name: 'Edit',
    tool_input: { file_path: lib, old_string: signature.old, new_string: signature.new },
    tool_response: { filePath: lib, success: true },
  };
  const told = (n: number, lines: string[]) =>
    `lspq: this edit of ${c.lib} introduced ${n} error${n > 1 ? 's' : ''} (compared with the edit undone):\n${lines.join('\n')}\n`;

  test('the files diagnosed, then the edit: its broken caller; asked twice, the same', async () => {
    expect((await lspq.run(['diag', c.lib, c.caller], { cwd: dir })).exit).toBe(0);
    writeFileSync(lib, libText.replace(signature.old, signature.new));
    try {
      for (let i = 0; i < 2; i++)
        expect(await hook(['run', '--for', 'claude'], dir, post)).toEqual({
          exit: 2,
          stdout: '',
          stderr: told(1, [c.broken]),
        });
    } finally {
      git(dir, 'checkout', '-q', '--', '.');
    }
  });

  test('another program writes the caller beside the edit: its error was there before the edit, not told', async () => {
    expect((await lspq.run(['diag', c.lib, c.caller], { cwd: dir })).exit).toBe(0);
    writeFileSync(lib, libText.replace(signature.old, signature.new));
    writeFileSync(caller, callerText + c.later);
    try {
      expect(await hook(['run', '--for', 'claude'], dir, post)).toEqual({
        exit: 2,
        stdout: '',
        stderr: told(1, [c.broken]),
      });
    } finally {
      git(dir, 'checkout', '-q', '--', '.');
    }
  });
});

test('Cursor: afterFileEdit remembers, stop answers a followup_message; once fixed, {}', async () => {
  const dir = project('cursor', TS);
  const lib = join(dir, 'src/lib.ts');
  const common = { conversation_id: 'c1', generation_id: 'g1', workspace_roots: [dir] };
  writeFileSync(lib, TS['src/lib.ts'].replace(SIGNATURE.old, SIGNATURE.new));
  const edited = {
    ...common,
    hook_event_name: 'afterFileEdit',
    file_path: lib,
    edits: [{ old_string: SIGNATURE.old, new_string: SIGNATURE.new }],
  };
  expect(await hook(['run', '--for', 'cursor'], dir, edited)).toEqual({ exit: 0, stdout: '{}\n', stderr: '' });
  const stop = { ...common, hook_event_name: 'stop', status: 'completed', loop_count: 0 };
  const told = await hook(['run', '--for', 'cursor'], dir, stop);
  expect(told.exit).toBe(0);
  expect(JSON.parse(told.stdout)).toEqual({
    followup_message: `lspq: these edits of src/lib.ts introduced 1 error (compared with the edit undone):\n${BROKEN}`,
  });
  // The agent fixes the caller in its follow-up; the turn's edits then introduce nothing.
  writeFileSync(join(dir, 'src/caller.ts'), TS['src/caller.ts'].replace('scale(2)', 'scale(2, 2)'));
  await hook(['run', '--for', 'cursor'], dir, {
    ...edited,
    file_path: join(dir, 'src/caller.ts'),
    edits: [{ old_string: 'scale(2)', new_string: 'scale(2, 2)' }],
  });
  expect(await hook(['run', '--for', 'cursor'], dir, { ...stop, loop_count: 1 })).toEqual({
    exit: 0,
    stdout: '{}\n',
    stderr: '',
  });
});

test("opencode: the plugin lspq prints, run with Bun's shell as opencode runs it, adds the problems to the edit's output", async () => {
  const dir = project('opencode', TS);
  const bin = join(base, 'bin');
  mkdirSync(bin, { recursive: true });
  lspqOnPath(bin);
  const plugin = join(dir, '.opencode', 'plugins', 'lspq.js');
  mkdirSync(join(plugin, '..'), { recursive: true });
  writeFileSync(plugin, (await lspq.run(['hook', 'opencode'])).stdout);
  const env = lspq.env({ PATH: `${bin}:${toolsPath()}` });
  const $ = Bun.$.cwd(dir).env(env);
  const { Lspq: make } = (await import(plugin)) as {
    Lspq: (ctx: { $: typeof Bun.$ }) => Promise<Record<string, (i: unknown, o: unknown) => Promise<void>>>;
  };
  const hooks = await make({ $ });
  const lib = join(dir, 'src/lib.ts');
  const edit = async (callID: string, text: string) => {
    const input = { tool: 'edit', sessionID: 'o1', callID };
    await hooks['tool.execute.before']!(input, { args: { filePath: lib, oldString: 'a', newString: 'b' } });
    writeFileSync(lib, text);
    const output = { title: 'edit', output: 'Edit applied successfully.', metadata: {} };
    await hooks['tool.execute.after']!(input, output);
    return output.output;
  };
  expect(await edit('1', TS['src/lib.ts'].replace(SIGNATURE.old, SIGNATURE.new))).toBe(
    `Edit applied successfully.\n\nlspq: this edit of src/lib.ts introduced 1 error:\n${BROKEN}`,
  );
  expect(await edit('2', TS['src/lib.ts'])).toBe('Edit applied successfully.');
  expect(readFileSync(lib, 'utf8')).toBe(TS['src/lib.ts']);
});

/** Claude Code's PreToolUse, the edit written, then its PostToolUse: what the hook says of it. */
async function claudeEdit(dir: string, file: string, session: string, old: string, made: string, args: string[] = []) {
  const path = join(dir, file);
  const input = (name: string) => ({
    session_id: session,
    hook_event_name: name,
    cwd: dir,
    tool_name: 'Edit',
    tool_input: { file_path: path, old_string: old, new_string: made },
  });
  await hook(['run', '--for', 'claude', ...args], dir, input('PreToolUse'));
  const text = readFileSync(path, 'utf8');
  if (!text.includes(old)) throw new Error(`${file} does not hold ${JSON.stringify(old)}`);
  writeFileSync(path, text.replace(old, made));
  return hook(['run', '--for', 'claude', ...args], dir, input('PostToolUse'));
}

test("a warning an edit adds is told by default (go vet's printf check); a hint only with --severity hint", async () => {
  const go = project('printf', {
    'go.mod': 'module example.com/printf\n\ngo 1.22\n',
    'items.go': 'package printf\n\nimport "fmt"\n\nvar Count = fmt.Sprint(3)\n',
  });
  const told = await claudeEdit(
    go,
    'items.go',
    'w1',
    'var Count = fmt.Sprint(3)',
    'var Count = fmt.Sprint(3)\n\nvar Items = fmt.Sprintf("%d items", "three")',
  );
  expect(told).toEqual({
    exit: 2,
    stdout: '',
    stderr:
      'lspq: this edit of items.go introduced 1 warning:\nitems.go:7:26: warning: fmt.Sprintf format %d has arg "three" of wrong type string [printf default]\n',
  });
  // TypeScript 7 says an unused import is a hint: not the model's to hear unless asked.
  const ts = project('hint', TS);
  const unused = [
    "import { scale } from './lib';",
    "import { scale } from './lib';\nimport { old } from './old';",
  ] as const;
  expect(await claudeEdit(ts, 'src/caller.ts', 'h1', ...unused)).toEqual({ exit: 0, stdout: '', stderr: '' });
  git(ts, 'checkout', '-q', '--', '.');
  expect(await claudeEdit(ts, 'src/caller.ts', 'h2', ...unused, ['--severity', 'hint'])).toEqual({
    exit: 2,
    stdout: '',
    stderr:
      "lspq: this edit of src/caller.ts introduced 1 hint:\nsrc/caller.ts:2:10: hint: 'old' is declared but its value is never read. [ts 6133]\n",
  });
});

describe('Claude Code on cobra (gopls)', () => {
  const dir = cobraAt(join(base, 'cobra'));
  const args = readFileSync(join(dir, 'args.go'), 'utf8');
  const noArgs = args.slice(args.indexOf('// NoArgs returns'), args.indexOf('// OnlyValidArgs returns'));

  test("SessionStart: answered at once and silently; the project's servers prepared in the background", async () => {
    const started = Date.now();
    const r = await hook(['run', '--for', 'claude'], dir, {
      session_id: 'start',
      hook_event_name: 'SessionStart',
      source: 'startup',
      cwd: dir,
    });
    expect([r, Date.now() - started < 3_000]).toEqual([{ exit: 0, stdout: '', stderr: '' }, true]);
    // gopls for cobra, started by the daemon after the answer, then loaded.
    const log = join(lspq.dir, 'run', 'daemon.log');
    const prepared = `prepared gopls for ${realpathSync(dir)} at a session's start`;
    for (let i = 0; i < 600 && !readFileSync(log, 'utf8').includes(prepared); i++) await Bun.sleep(100);
    expect(readFileSync(log, 'utf8')).toContain(prepared);
    const status = await lspq.json<{ servers: { id: string; root: string }[] }>(['daemon', 'status']);
    expect(status.servers.filter((s) => s.root === realpathSync(dir)).map((s) => s.id)).toEqual(['gopls']);
  }, 120_000);

  test('deleting NoArgs breaks 51 places: 20 told, and the last line names a command that lists all 51', async () => {
    const r = await claudeEdit(dir, 'args.go', 'cobra', noArgs, '');
    expect(r.exit).toBe(2);
    const told = r.stderr.trimEnd().split('\n');
    expect(told[0]).toBe('lspq: this edit of args.go introduced 51 errors:');
    expect(told.length).toBe(22);
    const last = told.at(-1)!;
    expect(last).toMatch(/^\.\.\. and 31 more; all 51: lspq diag --severity warning( [a-z_]+\.go)+$/);
    // The command named, run as the model would run it: exactly the 51, the 20 told first.
    const command = last.slice(last.indexOf('lspq ') + 'lspq '.length).split(' ');
    const listed = await lspq.run(command, { cwd: dir });
    const all = listed.stdout.trimEnd().split('\n');
    expect([listed.exit, all.length, listed.stderr]).toEqual([
      1,
      51,
      `lspq: 51 errors in ${command.length - 3} files\n`,
    ]);
    expect(all.slice(0, 20)).toEqual(told.slice(1, 21));
    expect(all.every((l) => / error: undefined: NoArgs \[compiler UndeclaredName\]$/.test(l))).toBe(true);
    // lspq's own document lists the same 51 the hook found.
    writeFileSync(join(dir, 'args.go'), args);
    const json = await claudeEdit(dir, 'args.go', 'cobra-json', noArgs, '', ['--json']);
    const doc = JSON.parse(json.stdout) as { diagnostics: { path: string; line: number; column: number }[] };
    expect(doc.diagnostics.map((d) => `${d.path}:${d.line}:${d.column}`)).toEqual(
      all.map((l) => l.slice(0, l.indexOf(': '))),
    );
    writeFileSync(join(dir, 'args.go'), args);
  }, 200_000);
});

test('a session start answers at once even where the server never starts; Cursor is answered {}', async () => {
  const dir = fakeProject('hook-start', 'never-initializes');
  const started = Date.now();
  const claude = await hook(['run', '--for', 'claude'], dir, {
    session_id: 's',
    hook_event_name: 'SessionStart',
    cwd: dir,
  });
  const cursor = await hook(['run', '--for', 'cursor'], dir, {
    conversation_id: 'c',
    hook_event_name: 'sessionStart',
    workspace_roots: [dir],
  });
  expect([claude, cursor, Date.now() - started < 5_000]).toEqual([
    { exit: 0, stdout: '', stderr: '' },
    { exit: 0, stdout: '{}\n', stderr: '' },
    true,
  ]);
  rmSync(dir, { recursive: true, force: true });
});
