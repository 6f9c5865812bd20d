/** Every link from the README and docs/ to a file of the repository (or a heading in one) leads somewhere. */
import { expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO } from '../helpers/lspq';

const pages = ['README.md', ...readdirSync(join(REPO, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

/** A heading's anchor as GitHub makes it. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');

function anchors(page: string): Set<string> {
  const text = readFileSync(join(REPO, page), 'utf8').replace(/```[\s\S]*?```|~~~[\s\S]*?~~~/g, '');
  return new Set([...text.matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1]!)));
}

test.each(pages)('%s: every link to the repository resolves', (page) => {
  const text = readFileSync(join(REPO, page), 'utf8');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target!)) continue;
    const [file, hash] = target!.split('#');
    const path = file ? join(REPO, dirname(page), file) : join(REPO, page);
    if (!existsSync(path)) broken.push(target!);
    else if (hash && path.endsWith('.md') && !anchors(path.slice(REPO.length + 1)).has(hash)) broken.push(target!);
  }
  expect(broken).toEqual([]);
});
