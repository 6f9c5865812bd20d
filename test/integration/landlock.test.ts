/**
 * The Landlock box for real: lspq's binary (LSPQ_TEST_BIN) runs `__box`
 * around sh, cat, node, python3 and git, and each test asserts what the box
 * lets through and what it refuses, with a listener, a victim process or a
 * file that shows whether anything got past. Where the network is on, the
 * same calls get through: the refusals are the box's, not the machine's.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { boxArgv, landlockAbi } from '../../src/box/landlock';
import type { BoxRules } from '../../src/box/rules';
import { capture, lspqArgv, type RunResult } from '../helpers/lspq';

const ABI = landlockAbi();
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';
const env = { ...process.env, PATH: SYSTEM_PATH, LANG: 'C' } as Record<string, string>;
const which = (name: string) => Bun.which(name, { PATH: SYSTEM_PATH });
const python = which('python3');
const node = which('node');
/** A program's install folder (its bin's parent: node's lib, python's stdlib), for programs outside /usr. */
const installOf = (program: string | null) => (program ? [dirname(dirname(realpathSync(program)))] : []);

const base = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-landlock-')));
const readable = join(base, 'readable');
const scratch = join(base, 'scratch');
const secret = join(base, 'secret.txt');
const SYSTEM = ['/usr', '/bin', '/lib', '/lib64', '/etc', ...installOf(python), ...installOf(node)];
const rules = (extra: Partial<BoxRules> = {}): BoxRules => ({
  read: [...SYSTEM, readable],
  write: [scratch],
  network: false,
  ...extra,
});

function boxed(argv: string[], boxRules: BoxRules = rules()): Promise<RunResult> {
  return capture(boxArgv(lspqArgv(), boxRules, argv), base, env);
}

/** A python3 snippet's stdout and stderr, boxed. */
const py = (code: string, boxRules?: BoxRules) => boxed([python ?? 'python3', '-c', code], boxRules);

beforeAll(() => {
  mkdirSync(readable);
  mkdirSync(scratch);
  writeFileSync(join(readable, 'notes.txt'), 'readable words\n');
  writeFileSync(secret, 'the secret\n');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe.skipIf(ABI === 0)(`the Landlock box (skipped where the kernel offers no Landlock; here ABI ${ABI})`, () => {
  test('a file under read is read; a file named in read is read, its neighbour not; a missing path is skipped', async () => {
    expect(await boxed(['cat', join(readable, 'notes.txt')])).toEqual({
      stdout: 'readable words\n',
      stderr: '',
      exit: 0,
    });
    const named = join(base, 'named.txt');
    writeFileSync(named, 'named words\n');
    const withFile = rules({ read: [...SYSTEM, named, join(base, 'missing')] });
    expect(await boxed(['cat', named], withFile)).toEqual({ stdout: 'named words\n', stderr: '', exit: 0 });
    expect((await boxed(['cat', secret], withFile)).exit).toBe(1);
  });

  test('a planted secret outside every read path is refused (EACCES)', async () => {
    const r = await boxed(['cat', secret]);
    expect(r).toEqual({ stdout: '', stderr: `cat: ${secret}: Permission denied\n`, exit: 1 });
    const fromPython = await py(
      `import errno\ntry:\n  open(${JSON.stringify(secret)}).read()\nexcept OSError as e:\n  print(errno.errorcode[e.errno])`,
    );
    expect(fromPython.stdout).toBe('EACCES\n');
    // Listing its folder is refused too: read is beneath the named paths only.
    expect((await boxed(['ls', base])).exit).toBe(2);
  });

  test('a write outside write is refused and leaves no file; a write in write is made', async () => {
    const outside = join(readable, 'planted.txt');
    const r = await boxed(['sh', '-c', `echo x > ${outside}`]);
    expect(r.exit).toBe(2);
    expect(r.stderr).toBe(`sh: 1: cannot create ${outside}: Permission denied\n`);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(base, 'top.txt'))).toBe(false);
    expect((await boxed(['sh', '-c', `echo x > ${join(base, 'top.txt')}`])).exit).toBe(2);
    expect(existsSync(join(base, 'top.txt'))).toBe(false);

    const inside = join(scratch, 'made.txt');
    expect(
      await boxed(['sh', '-c', `echo made > ${inside} && mkdir ${scratch}/d && mv ${inside} ${scratch}/d/`]),
    ).toEqual({ stdout: '', stderr: '', exit: 0 });
    expect(readFileSync(join(scratch, 'd', 'made.txt'), 'utf8')).toBe('made\n');
  });

  test('a child of the boxed program is boxed too', async () => {
    const r = await boxed([
      'sh',
      '-c',
      `sh -c 'cat ${secret}' 2>/dev/null; echo "child $?"; grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status`,
    ]);
    expect(r).toEqual({ stdout: 'child 1\nNoNewPrivs:\t1\nSeccomp:\t2\n', stderr: '', exit: 0 });
    const grandchild = await py(
      `import subprocess\nprint(subprocess.run(['sh', '-c', 'cat ${secret}'], capture_output=True).returncode)`,
    );
    expect(grandchild.stdout).toBe('1\n');
  });

  test('the program starts as a bare one would: no ignored or blocked signals, no extra descriptors, /dev/null', async () => {
    const status = await boxed(['grep', '-E', '^Sig(Blk|Ign):', '/proc/self/status']);
    expect(status.stdout).toBe('SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n');
    const bare = await capture(['ls', '/proc/self/fd'], base, env);
    expect((await boxed(['ls', '/proc/self/fd'])).stdout).toBe(bare.stdout);
    expect(await boxed(['sh', '-c', 'echo x > /dev/null && head -c 4 /dev/urandom | wc -c'])).toEqual({
      stdout: '4\n',
      stderr: '',
      exit: 0,
    });
  });

  test('git, node and python3 run in the box', async () => {
    const bare = await capture(['git', '--version'], base, env);
    expect(bare.stdout).toMatch(/^git version /);
    expect((await boxed(['git', '--version'])).stdout).toBe(bare.stdout);
    if (node) expect(await boxed([node, '-e', 'console.log(6 * 7)'])).toEqual({ stdout: '42\n', stderr: '', exit: 0 });
    expect((await py('print(6 * 7)')).stdout).toBe('42\n');
  });

  describe.skipIf(python === null)('the network (skipped without python3)', () => {
    test('TCP to a port the test listens on is refused, and the listener sees no connection; with network on it connects', async () => {
      let connections = 0;
      const listener = Bun.listen({
        hostname: '127.0.0.1',
        port: 0,
        socket: {
          open() {
            connections++;
          },
          data() {},
        },
      });
      try {
        const connect = `import socket, errno\ntry:\n  socket.create_connection(("127.0.0.1", ${listener.port}), timeout=5).close()\n  print("connected")\nexcept OSError as e:\n  print(errno.errorcode[e.errno])`;
        expect((await py(connect)).stdout).toBe('EACCES\n');
        await Bun.sleep(100);
        expect(connections).toBe(0);
        expect((await py(connect, rules({ network: true }))).stdout).toBe('connected\n');
        await Bun.sleep(100);
        expect(connections).toBe(1);
      } finally {
        listener.stop(true);
      }
    });

    test('a Unix socket the test listens on is unreachable, even in the write folder', async () => {
      let connections = 0;
      const path = join(scratch, 'daemon.sock');
      const listener = Bun.listen({
        unix: path,
        socket: {
          open() {
            connections++;
          },
          data() {},
        },
      });
      try {
        const connect = `import socket, errno\ns = None\ntry:\n  s = socket.socket(socket.AF_UNIX)\n  s.connect(${JSON.stringify(path)})\n  print("connected")\nexcept OSError as e:\n  print(errno.errorcode[e.errno])`;
        expect((await py(connect)).stdout).toBe('EACCES\n');
        // socketpair stays: it reaches nothing outside.
        expect((await py('import socket\na, b = socket.socketpair()\na.send(b"x")\nprint(b.recv(1))')).stdout).toBe(
          "b'x'\n",
        );
        await Bun.sleep(100);
        expect(connections).toBe(0);
        expect((await py(connect, rules({ network: true }))).stdout).toBe('connected\n');
        await Bun.sleep(100);
        expect(connections).toBe(1);
      } finally {
        listener.stop(true);
      }
    });

    test('a UDP sendto to a test port is refused; with network on it arrives', async () => {
      const received: string[] = [];
      const listener = await Bun.udpSocket({
        hostname: '127.0.0.1',
        socket: {
          data(_socket, data) {
            received.push(Buffer.from(data).toString());
          },
        },
      });
      try {
        const send = `import socket, errno\ntry:\n  socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"leak", ("127.0.0.1", ${listener.port}))\n  print("sent")\nexcept OSError as e:\n  print(errno.errorcode[e.errno])`;
        expect((await py(send)).stdout).toBe('EACCES\n');
        await Bun.sleep(100);
        expect(received).toEqual([]);
        expect((await py(send, rules({ network: true }))).stdout).toBe('sent\n');
        await Bun.sleep(100);
        expect(received).toEqual(['leak']);
      } finally {
        listener.close();
      }
    });

    test('io_uring_setup is refused (EPERM), as a ring could open sockets', async () => {
      const setup =
        'import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nr = libc.syscall(425, 1, ctypes.create_string_buffer(120))\nprint(r, ctypes.get_errno())';
      expect((await py(setup)).stdout).toBe('-1 1\n');
    });
  });

  test.skipIf(ABI < 6 || python === null)(
    'a boxed program cannot signal a process outside the box, only its own (skipped below ABI 6 or without python3)',
    async () => {
      const victim = Bun.spawn(['sleep', '30'], { stdout: 'ignore', stderr: 'ignore' });
      try {
        const signal = `import errno, os, signal, subprocess\ntry:\n  os.kill(${victim.pid}, signal.SIGTERM)\n  print("outside killed")\nexcept OSError as e:\n  print("outside", errno.errorcode[e.errno])\nown = subprocess.Popen(["sleep", "30"])\nown.terminate()\nprint("own", own.wait())`;
        expect((await py(signal)).stdout).toBe('outside EPERM\nown -15\n');
        await Bun.sleep(100);
        expect(victim.exitCode).toBeNull();
      } finally {
        victim.kill();
      }
    },
  );

  test('a box that cannot be made, or a program it cannot run, is exit 126 and one line', async () => {
    const run = (words: string[]) => capture([...lspqArgv(), '__box', ...words], base, env);
    expect(await run(['{"read": [], "write": [], "network": "no"}', '--', 'true'])).toEqual({
      stdout: '',
      stderr:
        'lspq: cannot box true: the rules are not {read, write, network}: ✖ Invalid input: expected boolean, received string;   → at network\n',
      exit: 126,
    });
    expect(await run(['{', '--', 'true'])).toMatchObject({ stdout: '', exit: 126 });
    expect((await run(['{', '--', 'true'])).stderr).toStartWith('lspq: cannot box true: the rules are not JSON: ');
    expect(await run([JSON.stringify(rules()), '--', 'no-such-program'])).toEqual({
      stdout: '',
      stderr: 'lspq: cannot box no-such-program: not found on PATH\n',
      exit: 126,
    });
    // The program lies outside every read path: refused, never run unboxed.
    const tool = join(base, 'tool.sh');
    writeFileSync(tool, '#!/bin/sh\necho ran\n', { mode: 0o755 });
    expect(await run([JSON.stringify(rules()), '--', tool])).toEqual({
      stdout: '',
      stderr: `lspq: cannot box ${tool}: ${tool}: Permission denied (errno 13)\n`,
      exit: 126,
    });
    expect(await run([JSON.stringify(rules()), 'true'])).toEqual({
      stdout: '',
      stderr: 'lspq: cannot box (no program): usage: lspq __box RULES_JSON -- PROGRAM ARGS...\n',
      exit: 126,
    });
  });
});
