/**
 * Many commands at once against one daemon: 50 questions from 10 processes
 * at a time, over 3 roots and 3 languages (Go, TypeScript, Python), cold
 * and then warm. Every answer must be exactly the one the same question
 * gets alone.
 */
import { afterAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { FIXTURES, Lspq } from '../helpers/lspq';

const lspq = new Lspq();
afterAll(async () => expect(await lspq.stop()).toEqual([]));

const QUESTIONS: { cwd: string; args: string[] }[] = [
  { cwd: 'go-shapes', args: ['def', 'main.go:7:TotalArea'] },
  { cwd: 'go-shapes', args: ['refs', 'shape.go:4:Shape'] },
  { cwd: 'go-shapes', args: ['hover', 'geometry.go:9:sumAreas'] },
  { cwd: 'go-shapes', args: ['symbols', 'circle.go'] },
  { cwd: 'ts-shapes', args: ['def', 'src/main.ts:7:totalArea'] },
  { cwd: 'ts-shapes', args: ['refs', 'src/shape.ts:2:Shape'] },
  { cwd: 'ts-shapes', args: ['impls', 'src/shape.ts:4:area'] },
  { cwd: 'py-shapes', args: ['def', 'main.py:7:total_area'] },
  { cwd: 'py-shapes', args: ['refs', 'shapes/shape.py:7:Shape'] },
  { cwd: 'py-shapes', args: ['hover', 'shapes/geometry.py:15:total_area'] },
];

async function all(n: number, parallel: number): Promise<{ question: number; stdout: string; exit: number }[]> {
  const results: { question: number; stdout: string; exit: number }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const q = QUESTIONS[i % QUESTIONS.length]!;
      const r = await lspq.run([...q.args, '--timeout', '120'], { cwd: join(FIXTURES, q.cwd) });
      results.push({ question: i % QUESTIONS.length, stdout: r.stdout, exit: r.exit });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

test('50 questions from 10 processes at once, cold then warm: each answer is the one asked alone', async () => {
  const cold = await all(50, 10);
  const warm = await all(50, 10);
  const expected: string[] = [];
  for (const q of QUESTIONS) expected.push((await lspq.run(q.args, { cwd: join(FIXTURES, q.cwd) })).stdout);
  expect(expected.every((e) => e.length > 0)).toBe(true);
  for (const r of [...cold, ...warm])
    expect({ question: r.question, exit: r.exit, stdout: r.stdout }).toEqual({
      question: r.question,
      exit: 0,
      stdout: expected[r.question]!,
    });
  // One daemon, one server per language and root.
  const status = await lspq.json<{ servers: { id: string }[] }>(['daemon', 'status']);
  expect(status.servers.map((s) => s.id).sort()).toEqual(['gopls', 'pyright', 'typescript']);
});
