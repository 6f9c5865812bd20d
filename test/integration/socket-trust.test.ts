/**
 * No line stops the daemon: 10,000 malformed messages (truncated, oversized,
 * wrong types, wrong protocol or build, random bytes, connections closed
 * half way) sent to its socket, bounded in time, while real questions from
 * other processes are answered exactly as alone. Afterwards the same daemon
 * (same pid) answers a normal question.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '../../src/common/messages';
import { FIXTURES, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
const go = join(FIXTURES, 'go-shapes');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
});

const MESSAGES = 10_000;
const AT_ONCE = 50;
const CONNECTION_MS = 3_000;
const DEF = { exit: 0, stdout: 'geometry.go:17:6: func TotalArea(shapes []Shape, unit Unit) string {\n', stderr: '' };

/** One connection: `bytes` sent (and the end of the line, or not), the first reply line back, or null. */
function exchange(socket: string, bytes: Uint8Array, close = false): Promise<string | null> {
  return new Promise((resolve) => {
    let buffer = '';
    let done = false;
    const finish = (value: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => finish(null), CONNECTION_MS);
    let push = () => {};
    Bun.connect({
      unix: socket,
      socket: {
        open(s) {
          let at = 0;
          push = () => {
            while (at < bytes.length) {
              const n = s.write(bytes.subarray(at));
              if (n <= 0) return;
              at += n;
            }
            if (close) s.end();
          };
          push();
        },
        drain() {
          push();
        },
        data(s, chunk) {
          buffer += new TextDecoder().decode(chunk);
          const end = buffer.indexOf('\n');
          if (end >= 0) {
            finish(buffer.slice(0, end));
            s.end();
          }
        },
        close: () => finish(buffer || null),
        error: () => finish(null),
      },
    }).catch(() => finish(null));
  });
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe('the daemon takes any line and goes on', () => {
  test(`${MESSAGES} malformed messages beside real questions: every question answered exactly, the same daemon after`, async () => {
    expect(await lspq.run(['def', 'main.go:7:TotalArea'], { cwd: go })).toEqual(DEF);
    const pid = (await lspq.json<{ pid: number }>(['daemon', 'status'])).pid;
    const ping = JSON.parse(
      (await exchange(
        lspq.socket,
        new TextEncoder().encode(`${JSON.stringify({ protocol: 0, build: 'x', request: { op: 'ping' } })}\n`),
      ))!,
    ) as { build: string };
    const build = ping.build;
    const envelope = (request: unknown, protocol: unknown = PROTOCOL_VERSION, b: unknown = build) =>
      JSON.stringify({ protocol, build: b, request });
    const line = {
      command: 'def',
      args: [],
      cwd: go,
      env: {},
      color: false,
      progress: false,
      json: false,
      help: false,
    };

    // Well framed, this build, malformed: each must be refused with the same error reply.
    const refused = [
      '{}',
      '[]',
      'null',
      '42',
      '"text"',
      JSON.stringify({ protocol: '4' }),
      envelope('run'),
      envelope({ op: 'run' }),
      envelope({ op: 'nope' }),
      envelope({ op: 'run', line: { ...line, args: [1, 2] } }),
      envelope({ op: 'run', line: { ...line, env: { A: 1 } } }),
      envelope({ op: 'run', line: { ...line, cwd: '' } }),
      envelope({ op: 'run', line: { ...line, color: 'yes' } }),
    ];
    for (const text of refused) {
      const reply = JSON.parse((await exchange(lspq.socket, new TextEncoder().encode(`${text}\n`)))!);
      expect({
        text,
        ok: reply.ok,
        code: reply.error?.code,
        starts: reply.error?.message.startsWith('the daemon got a malformed request ('),
      }).toEqual({
        text,
        ok: false,
        code: 'daemon',
        starts: true,
      });
    }
    // Another protocol or build: told to replace the daemon, not served.
    const other = JSON.parse(
      (await exchange(lspq.socket, new TextEncoder().encode(`${envelope({ op: 'run', line }, 1, 'old')}\n`)))!,
    );
    expect(other).toEqual({ ok: false, mismatch: { build, protocol: PROTOCOL_VERSION } });

    // Real questions from other processes while the fuzz runs: each exactly as alone.
    let fuzzing = true;
    const answers: unknown[] = [];
    const questions = (async () => {
      while (fuzzing) answers.push(await lspq.run(['def', 'main.go:7:TotalArea'], { cwd: go }));
    })();

    const rand = random(19);
    const valid = `${envelope({ op: 'run', line })}\n`;
    const message = (i: number): { bytes: Uint8Array; close: boolean } => {
      const kind = i % 8;
      const enc = new TextEncoder();
      if (kind === 0) return { bytes: enc.encode(`${refused[i % refused.length]}\n`), close: false };
      if (kind === 1)
        return { bytes: enc.encode(`${valid.slice(0, Math.floor(rand() * (valid.length - 2)))}\n`), close: false };
      if (kind === 2) return { bytes: enc.encode(valid.slice(0, Math.floor(rand() * valid.length))), close: true };
      if (kind === 3) {
        const bytes = new Uint8Array(1 + Math.floor(rand() * 200));
        for (let k = 0; k < bytes.length; k++) bytes[k] = Math.floor(rand() * 256);
        bytes[bytes.length - 1] = 10;
        return { bytes, close: false };
      }
      if (kind === 4)
        return {
          bytes: enc.encode(`${envelope({ op: 'run', line }, rand() > 0.5 ? 1 : PROTOCOL_VERSION, 'other')}\n`),
          close: false,
        };
      if (kind === 5) return { bytes: new Uint8Array(0), close: true };
      if (kind === 6)
        return { bytes: enc.encode(`${envelope({ op: 'status', extra: '\u0000'.repeat(10) })}\n`), close: false };
      return {
        bytes: enc.encode(
          `{"protocol":${PROTOCOL_VERSION},"build":"${build}","request":${'['.repeat(1 + Math.floor(rand() * 50))}\n`,
        ),
        close: false,
      };
    };
    const started = performance.now();
    let next = 0;
    let replied = 0;
    const worker = async () => {
      while (next < MESSAGES) {
        const m = message(next++);
        if ((await exchange(lspq.socket, m.bytes, m.close)) !== null) replied++;
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    // Every line that ended got its reply: only the two kinds closed before a line ended have none.
    expect(replied).toBe((MESSAGES * 6) / 8);
    // Lines past the daemon's limit: refused, the connection let go.
    const huge = new Uint8Array(5 * 1024 * 1024 + 1).fill(0x61);
    for (let k = 0; k < 3; k++) {
      const reply = await exchange(lspq.socket, huge);
      expect(
        reply === null ||
          JSON.parse(reply).error.message.startsWith('the daemon got a malformed request (a line longer than 4 MB)'),
      ).toBe(true);
    }
    fuzzing = false;
    await questions;
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeLessThan(240);

    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((a) => !Bun.deepEquals(a, DEF))).toEqual([]);
    expect(await lspq.run(['def', 'main.go:7:TotalArea'], { cwd: go })).toEqual(DEF);
    expect((await lspq.json<{ pid: number }>(['daemon', 'status'])).pid).toBe(pid);
  }, 300_000);
});
