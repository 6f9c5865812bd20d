/**
 * A cold server answers as the warm one does, on real published projects:
 * the first refs after a server starts equals the one asked right after
 * it, place for place. pyright's first references leave out uses in
 * string annotations and intelephense's leave out overriding methods, with
 * no signal to wait for: lspq asks such a server again until two answers
 * agree (spec.settles).
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, Lspq, REPO, scratchDir } from '../helpers/lspq';

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** A copy of a published project, committed as a fresh clone would be. */
function copyOf(name: string, from: string, marker?: string): string {
  const dir = scratchDir(name);
  copies.push(dir);
  cpSync(from, dir, { recursive: true });
  if (marker) writeFileSync(join(dir, marker), '{}\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'as published');
  return dir;
}

describe.each([
  {
    name: 'pyright on httpx 0.28.1',
    project: () => copyOf('httpx', join(REPO, '.tools', 'sources', 'httpx-0.28.1')),
    args: ['refs', 'httpx/_models.py:382:Request', '--limit', '1000'],
    count: 192,
    cold: [
      'httpx/_types.py:64:16: Callable[["Request"], "Request"],',
      'httpx/_types.py:64:28: Callable[["Request"], "Request"],',
    ],
  },
  {
    name: 'intelephense on monolog 2.9.1',
    project: () => copyOf('monolog', join(REPO, '.tools', 'php-src'), 'composer.json'),
    args: ['refs', 'Monolog/Handler/AbstractHandler.php:51:isHandling', '--limit', '1000'],
    count: 20,
    cold: [
      'Monolog/Handler/NoopHandler.php:28:21: public function isHandling(array $record): bool  (in NoopHandler)',
      'Monolog/Handler/NullHandler.php:48:21: public function isHandling(array $record): bool  (in NullHandler)',
    ],
  },
])('$name', ({ project, args, count, cold }) => {
  test('the cold answer is the warm one, place for place', async () => {
    const dir = project();
    const lspq = new Lspq();
    try {
      const first = await lspq.run([...args, '--timeout', '120'], { cwd: dir });
      const again = await lspq.run([...args], { cwd: dir });
      expect([first.exit, again.exit]).toEqual([0, 0]);
      expect(first.stdout).toBe(again.stdout);
      const lines = first.stdout.split('\n').filter(Boolean);
      expect(lines.length).toBe(count);
      for (const line of cold) expect(lines).toContain(line);
    } finally {
      expect(await lspq.stop()).toEqual([]);
    }
  });
});
