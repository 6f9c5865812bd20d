import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, fakeProject, FIXTURES, git, isAlive, Lspq, lspqArgv, REPO } from '../helpers/lspq';

interface Status {
  running: boolean;
  pid: number;
  build: string;
  servers: { id: string; root: string; pid: number; requests: number }[];
  broken: { id: string; root: string }[];
}

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** Waits for a condition that another process makes true (a process exiting); bounded. */
async function eventually(check: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await Bun.sleep(20);
  }
  return check();
}

const GO_DEF = ['def', 'main.go:7:TotalArea'];

describe('the daemon', () => {
  const lspq = new Lspq();
  const go = join(FIXTURES, 'go-shapes');
  afterAll(async () => expect(await lspq.stop()).toEqual([]));

  test('the first command starts it; later ones reuse the same server', async () => {
    expect((await lspq.run(GO_DEF, { cwd: go })).stdout).toBe(
      'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n',
    );
    const first = await lspq.json<Status>(['daemon', 'status'], { cwd: go });
    await lspq.run(['refs', 'geometry.go:17:TotalArea'], { cwd: go });
    const second = await lspq.json<Status>(['daemon', 'status'], { cwd: go });
    expect(first.running).toBe(true);
    expect(second.pid).toBe(first.pid);
    expect(second.servers.map((s) => [s.id, s.root, s.pid])).toEqual([['gopls', go, first.servers[0]!.pid]]);
    expect(second.servers[0]!.requests).toBeGreaterThan(first.servers[0]!.requests);
  });

  test('a server killed from outside is started again by the next request', async () => {
    const before = await lspq.json<Status>(['daemon', 'status']);
    process.kill(before.servers[0]!.pid, 'SIGKILL');
    expect(await eventually(() => !isAlive(before.servers[0]!.pid))).toBe(true);
    const r = await lspq.run(GO_DEF, { cwd: go });
    expect(r.stdout).toBe('geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n');
    const after = await lspq.json<Status>(['daemon', 'status']);
    expect(after.servers[0]!.pid).not.toBe(before.servers[0]!.pid);
  });

  test('servers are keyed by the environment that changes their answers', async () => {
    await lspq.run(GO_DEF, { cwd: go, env: { GOFLAGS: '-tags=other' } });
    const status = await lspq.json<Status>(['daemon', 'status']);
    expect(status.servers.filter((s) => s.id === 'gopls')).toHaveLength(2);
  });

  test('daemon logs shows the log', async () => {
    const r = await lspq.run(['daemon', 'logs']);
    expect(r.stdout).toContain('starting gopls');
  });

  test('SIGKILL of the daemon leaves no server behind, and the next command replaces it unnoticed', async () => {
    const before = await lspq.json<Status>(['daemon', 'status']);
    process.kill(before.pid, 'SIGKILL');
    // Each server ends when its input closes with the daemon; under the suite's load one took over 10 s.
    for (const s of before.servers)
      expect([s.id, await eventually(() => !isAlive(s.pid), 30_000)]).toEqual([s.id, true]);
    const r = await lspq.run(GO_DEF, { cwd: go });
    expect(r.exit).toBe(0);
    const after = await lspq.json<Status>(['daemon', 'status']);
    expect(after.pid).not.toBe(before.pid);
  });
});

describe('never stale', () => {
  const lspq = new Lspq();
  afterAll(async () => expect(await lspq.stop()).toEqual([]));

  test('three lines inserted above a definition by another program shift the answer', async () => {
    const dir = copyFixture('go-shapes');
    scratch.push(dir);
    expect((await lspq.run(GO_DEF, { cwd: dir })).stdout).toStartWith('geometry.go:17:6:');
    const file = join(dir, 'geometry.go');
    writeFileSync(file, readFileSync(file, 'utf8').replace('import "fmt"\n', 'import "fmt"\n\n// one\n// two\n'));
    expect((await lspq.run(GO_DEF, { cwd: dir })).stdout).toStartWith('geometry.go:20:6:');
  });

  test('git checkout of a branch where the function moved gives the new place', async () => {
    const dir = copyFixture('go-shapes');
    scratch.push(dir);
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'init');
    git(dir, 'checkout', '-q', '-b', 'moved');
    const geometry = readFileSync(join(dir, 'geometry.go'), 'utf8');
    const total = geometry.slice(geometry.indexOf('func TotalArea'));
    writeFileSync(join(dir, 'geometry.go'), geometry.replace(total, '').replace('import "fmt"\n', ''));
    writeFileSync(join(dir, 'total.go'), `package main\n\nimport "fmt"\n\n// TotalArea moved here.\n${total}`);
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'move');
    git(dir, 'checkout', '-q', 'main');
    expect((await lspq.run(GO_DEF, { cwd: dir })).stdout).toStartWith('geometry.go:17:6:');
    git(dir, 'checkout', '-q', 'moved');
    expect((await lspq.run(GO_DEF, { cwd: dir })).stdout).toBe(
      'total.go:6:6: func TotalArea(shapes []Shape, unit Unit) string {\n',
    );
  });

  test('an open document edited on disk is re-read (TypeScript)', async () => {
    const dir = copyFixture('ts-shapes');
    scratch.push(dir);
    expect((await lspq.run(['def', 'src/main.ts:7:totalArea'], { cwd: dir })).stdout).toStartWith(
      'src/geometry.ts:13:17:',
    );
    const main = join(dir, 'src/main.ts');
    writeFileSync(main, `\n\n${readFileSync(main, 'utf8')}`);
    expect((await lspq.run(['def', 'src/main.ts:9:totalArea'], { cwd: dir })).stdout).toStartWith(
      'src/geometry.ts:13:17:',
    );
  });
});

describe('crashes, cancellation and the socket folder', () => {
  const lspq = new Lspq();
  afterAll(async () => expect(await lspq.stop()).toEqual([]));
  const fake = (server: string) => {
    const dir = fakeProject('daemon', server, { 'a.fake': 'hello\n' });
    scratch.push(dir);
    return dir;
  };

  test('a crash fails the request in flight with exit 3, naming the server and its stderr', async () => {
    const dir = fake('crashes-on-definition');
    const r = await lspq.run(['def', 'a.fake:1:1'], { cwd: dir });
    expect(r.exit).toBe(3);
    expect(r.stderr).toMatch(
      /^lspq: fake exited with code 3 \(root .*\); its stderr ended with: boom: the fake server crashed on purpose; the next command starts it again\n$/,
    );
  });

  test('a frame lspq cannot read stops the server at once, saying so; the next question has a new one', async () => {
    const dir = fake('unreadable-frame');
    // Waiting out the --timeout for the answer lost in the stream would end in "did not answer".
    const r = await lspq.run(['def', 'a.fake:1:1', '--timeout', '30'], { cwd: dir });
    expect(r).toEqual({
      exit: 3,
      stdout: '',
      stderr: `lspq: fake sent a frame lspq cannot read (Header must provide a Content-Length property.), so it was stopped (root ${dir}); the next command starts it again\n`,
    });
    const again = await lspq.run(['def', 'a.fake:1:1'], { cwd: dir });
    expect(again.exit).toBe(3);
    expect(again.stderr).toContain('sent a frame lspq cannot read');
  });

  test('three crashes in three minutes leave it off until daemon restart', async () => {
    const dir = fake('crashes-on-definition');
    for (let crash = 1; crash <= 3; crash++)
      expect((await lspq.run(['def', 'a.fake:1:1'], { cwd: dir })).stderr).toContain(
        'boom: the fake server crashed on purpose',
      );
    const fourth = await lspq.run(['def', 'a.fake:1:1'], { cwd: dir });
    expect(fourth.exit).toBe(3);
    expect(fourth.stderr).toContain('crashed 3 times in 3 minutes');
    expect(fourth.stderr).toContain('lspq daemon restart');
    expect((await lspq.json<Status>(['daemon', 'status'])).broken).toEqual([{ id: 'fake', root: dir }]);
    await lspq.run(['daemon', 'restart']);
    expect((await lspq.json<Status>(['daemon', 'status'])).broken).toEqual([]);
  });

  test('killing a command cancels its request in the server', async () => {
    const dir = fake('hangs-on-definition');
    const proc = Bun.spawn([...lspqArgv(), 'def', 'a.fake:1:1'], {
      cwd: dir,
      env: lspq.env(),
      stdout: 'ignore',
      stderr: 'ignore',
    });
    // The request is in flight once the server says it was asked (under load its start takes seconds).
    expect(await eventually(() => existsSync(join(dir, 'cancelled.asked')))).toBe(true);
    proc.kill('SIGINT');
    await proc.exited;
    expect(await eventually(() => existsSync(join(dir, 'cancelled')))).toBe(true);
  });

  test('a request that runs out of time is cancelled and exits 3 naming the server', async () => {
    const dir = fake('hangs-on-definition');
    rmSync(join(dir, 'cancelled'), { force: true });
    const r = await lspq.run(['def', 'a.fake:1:1', '--timeout', '1'], { cwd: dir });
    expect(r.exit).toBe(3);
    expect(r.stderr).toBe(
      "lspq: fake did not answer textDocument/definition within 1s; retry with a larger --timeout, or see 'lspq daemon logs'\n",
    );
    expect(await eventually(() => existsSync(join(dir, 'cancelled')))).toBe(true);
  });

  test('a socket folder open to others is refused with the fix', async () => {
    const dir = join(lspq.dir, 'open');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const r = await lspq.run(['def', 'main.go:7:TotalArea'], {
      cwd: join(FIXTURES, 'go-shapes'),
      env: { LSPQ_SOCKET: join(dir, 'd.sock') },
    });
    expect(r.exit).toBe(3);
    expect(r.stderr).toBe(
      `lspq: refusing the daemon folder ${dir}: it is open to group or others (mode 755); run 'chmod 700 ${dir}' or set LSPQ_SOCKET\n`,
    );
  });

  test('a running daemon whose folder was opened to others gets no question', async () => {
    const other = new Lspq();
    try {
      // A question starts the daemon (looking, as `servers` does, starts nothing).
      expect((await other.run(['def', 'main.go:7:TotalArea'], { cwd: join(FIXTURES, 'go-shapes') })).exit).toBe(0);
      const dir = join(other.dir, 'run');
      // The log is written after the answer is sent: its line is waited for before it is counted.
      const defs = () => readFileSync(join(dir, 'daemon.log'), 'utf8').split(' def (').length - 1;
      for (let i = 0; i < 100 && defs() === 0; i++) await Bun.sleep(20);
      expect(defs()).toBe(1);
      chmodSync(dir, 0o777);
      const r = await other.run(['def', 'main.go:7:TotalArea'], { cwd: join(FIXTURES, 'go-shapes') });
      expect(r.stderr).toBe(
        `lspq: refusing the daemon folder ${dir}: it is open to group or others (mode 777); run 'chmod 700 ${dir}' or set LSPQ_SOCKET\n`,
      );
      expect(r.exit).toBe(3);
      expect(defs()).toBe(1);
      chmodSync(dir, 0o700);
    } finally {
      expect(await other.stop()).toEqual([]);
    }
  });

  test('a socket folder owned by someone else is refused', async () => {
    const dir = join(lspq.dir, 'theirs');
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    const r = await lspq.run(['servers'], { env: { LSPQ_SOCKET: join(dir, 'd.sock') } });
    expect(r.exit).toBe(3);
    expect(r.stderr).toMatch(
      /^lspq: refusing the daemon folder .*: it is owned by uid 65534, not you \(0\); remove it or set LSPQ_SOCKET\n$/,
    );
  });

  test('a stale socket file of a dead daemon is cleaned up, not an error', async () => {
    const other = new Lspq();
    mkdirSync(join(other.dir, 'run'), { mode: 0o700 });
    writeFileSync(other.socket, 'stale');
    writeFileSync(join(other.dir, 'run', 'daemon.lock'), '999999');
    const r = await other.run(GO_DEF, { cwd: join(FIXTURES, 'go-shapes') });
    expect(r.exit).toBe(0);
    expect(await other.stop()).toEqual([]);
  });
});

describe('a daemon that takes questions but never answers', () => {
  test('the command gives up with exit 3 and the fix; daemon restart ends it and its servers', async () => {
    const lspq = new Lspq();
    const go = join(FIXTURES, 'go-shapes');
    await lspq.run(GO_DEF, { cwd: go });
    const wedged = await lspq.json<Status>(['daemon', 'status']);
    process.kill(wedged.pid, 'SIGSTOP'); // still listening (the kernel accepts), never answering
    try {
      const r = await lspq.run([...GO_DEF, '--timeout', '1'], { cwd: go });
      expect(r.exit).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `lspq: the daemon (pid ${wedged.pid}) took the question but did not answer (no answer within 6s); run 'lspq daemon restart', or use --no-daemon\n`,
      );
      const restart = await lspq.run(['daemon', 'restart']);
      expect(restart.exit).toBe(0);
      expect(isAlive(wedged.pid)).toBe(false);
      for (const s of wedged.servers) expect(await eventually(() => !isAlive(s.pid))).toBe(true);
      const after = await lspq.run(GO_DEF, { cwd: go });
      expect(after.stdout).toBe('geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n');
    } finally {
      if (isAlive(wedged.pid)) process.kill(wedged.pid, 'SIGKILL');
    }
    expect(await lspq.stop()).toEqual([]);
  });
});

describe('a daemon that takes an edit but never answers', () => {
  test('the command ends it and asks the next daemon what became of the edit, never sending it again', async () => {
    const lspq = new Lspq();
    const go = copyFixture('go-shapes');
    const before = readFileSync(join(go, 'geometry.go'), 'utf8');
    await lspq.run(GO_DEF, { cwd: go });
    const wedged = await lspq.json<Status>(['daemon', 'status']);
    process.kill(wedged.pid, 'SIGSTOP'); // it accepts the edit and never reads it
    try {
      const r = await lspq.run(['rename', 'geometry.go:17:TotalArea', 'SumOfAreas', '--timeout', '1'], { cwd: go });
      expect(r).toEqual({
        stdout: '',
        stderr: `lspq: the daemon stopped before it wrote anything (the daemon (pid ${wedged.pid}) took it but did not answer (no answer within 6s), so it was ended); no file changed; run the command again\n`,
        exit: 3,
      });
      expect(isAlive(wedged.pid)).toBe(false);
      expect(readFileSync(join(go, 'geometry.go'), 'utf8')).toBe(before);
      // The next daemon answers.
      expect((await lspq.run(GO_DEF, { cwd: go })).exit).toBe(0);
    } finally {
      if (isAlive(wedged.pid)) process.kill(wedged.pid, 'SIGKILL');
      rmSync(go, { recursive: true, force: true });
    }
    expect(await lspq.stop()).toEqual([]);
  });
});

describe('builds', () => {
  test('a command from another build replaces the daemon instead of talking to it', async () => {
    const binary = join(REPO, 'dist', 'lspq');
    // The binary of these very sources; its build id differs from the source run's 'dev'.
    if (!process.env.LSPQ_TEST_BIN) Bun.spawnSync([process.execPath, 'run', 'build'], { cwd: REPO });
    const lspq = new Lspq();
    const go = join(FIXTURES, 'go-shapes');
    const fromSource = Bun.spawnSync([process.execPath, join(REPO, 'src', 'main.ts'), ...GO_DEF], {
      cwd: go,
      env: lspq.env(),
    });
    expect(fromSource.stdout.toString()).toStartWith('geometry.go:17:6:');
    const before = await lspq.json<Status>(['daemon', 'status']);
    const fromBinary = Bun.spawnSync([binary, ...GO_DEF], { cwd: go, env: lspq.env() });
    expect(fromBinary.stdout.toString()).toStartWith('geometry.go:17:6:');
    const binaryStatus = JSON.parse(
      Bun.spawnSync([binary, 'daemon', 'status', '--json'], { env: lspq.env() }).stdout.toString(),
    ) as Status;
    expect(binaryStatus.build).not.toBe(before.build);
    expect(binaryStatus.pid).not.toBe(before.pid);
    expect(isAlive(before.pid)).toBe(false);
    Bun.spawnSync([binary, 'daemon', 'stop'], { env: lspq.env() });
    expect(await lspq.stop()).toEqual([]);
  });
});

describe('one daemon for many commands', () => {
  test('twenty commands started at once on a cold machine start exactly one daemon, all answered', async () => {
    const lspq = new Lspq();
    const go = join(FIXTURES, 'go-shapes');
    const runs = await Promise.all(Array.from({ length: 20 }, () => lspq.run(GO_DEF, { cwd: go })));
    for (const r of runs)
      expect(r.stdout).toBe('geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n');
    const status = await lspq.json<Status>(['daemon', 'status']);
    const daemons = Bun.spawnSync(['pgrep', '-f', '__daemon'])
      .stdout.toString()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
    const ours = daemons.filter((pid) => readFileSync(`/proc/${pid}/environ`, 'utf8').includes(lspq.socket));
    expect(ours).toEqual([status.pid]);
    expect(status.servers).toHaveLength(1);
    expect(await lspq.stop()).toEqual([]);
  });

  test('idle servers stop and an idle daemon exits, leaving nothing', async () => {
    const lspq = new Lspq();
    const env = { LSPQ_SERVER_IDLE_SECONDS: '1', LSPQ_DAEMON_IDLE_SECONDS: '3' };
    await lspq.run(GO_DEF, { cwd: join(FIXTURES, 'go-shapes'), env });
    const status = await lspq.json<Status>(['daemon', 'status'], { env });
    const server = status.servers[0]!.pid;
    expect(await eventually(() => !isAlive(server), 15_000)).toBe(true);
    expect(await eventually(() => !isAlive(status.pid), 15_000)).toBe(true);
    expect(existsSync(lspq.socket)).toBe(false);
    expect(await lspq.stop()).toEqual([]);
  });
});
