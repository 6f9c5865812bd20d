/**
 * A watch that runs out says so and still sees every change: past the
 * system's watch limit (here LSPQ_TEST_WATCH_LIMIT=1, the daemon's stand-in
 * for a small fs.inotify.max_user_watches: the root alone is watched), the
 * folders it could not watch are looked at by their files' times before
 * each question. A file another program creates, edits or deletes in one
 * of them is told to gopls like any other change: refs counts it at once.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lspq, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const dir = scratchDir('watch-limit');
const env = { LSPQ_TEST_WATCH_LIMIT: '1' };
writeFileSync(join(dir, 'go.mod'), 'module example.com/limit\n\ngo 1.22\n');
writeFileSync(join(dir, 'main.go'), 'package main\n\nimport "example.com/limit/deep/er"\n\nfunc main() { er.Use() }\n');
mkdirSync(join(dir, 'deep', 'er'), { recursive: true });
writeFileSync(
  join(dir, 'deep', 'er', 'er.go'),
  'package er\n\n// Thing is counted.\nfunc Thing() int { return 1 }\n\nfunc Use() int { return Thing() }\n',
);

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

const refs = async () => (await lspq.run(['refs', 'deep/er/er.go:4:Thing'], { cwd: dir, env })).stdout;

test('a file created, changed and deleted in an unwatched folder is seen by the next question', async () => {
  expect(await refs()).toBe('deep/er/er.go:6:25: func Use() int { return Thing() }  (in Use)\n');
  // Another program writes a new file where no watch could be set.
  writeFileSync(join(dir, 'deep', 'er', 'more.go'), 'package er\n\nfunc More() int { return Thing() + 1 }\n');
  expect(await refs()).toBe(
    'deep/er/er.go:6:25: func Use() int { return Thing() }  (in Use)\ndeep/er/more.go:3:26: func More() int { return Thing() + 1 }  (in More)\n',
  );
  // Changed: a second use on the same line.
  writeFileSync(join(dir, 'deep', 'er', 'more.go'), 'package er\n\nfunc More() int { return Thing() + Thing() }\n');
  expect(await refs()).toBe(
    'deep/er/er.go:6:25: func Use() int { return Thing() }  (in Use)\ndeep/er/more.go:3:26: func More() int { return Thing() + Thing() }  (in More)\ndeep/er/more.go:3:36: func More() int { return Thing() + Thing() }  (in More)\n',
  );
  rmSync(join(dir, 'deep', 'er', 'more.go'));
  expect(await refs()).toBe('deep/er/er.go:6:25: func Use() int { return Thing() }  (in Use)\n');
  // Said once in the log, with how to raise the limit.
  const logs = (await lspq.run(['daemon', 'logs'])).stdout;
  expect(logs).toContain("the system's watch limit is reached (fs.inotify.max_user_watches)");
  expect(logs).toContain('sudo sysctl fs.inotify.max_user_watches=524288');
});
