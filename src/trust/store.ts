/**
 * The trust store: the repositories whose own code the user lets run
 * (`lspq trust`), in the user's configuration folder (`trust.json`), each
 * with its real path and a hash of each of its `.lsp.json`. Read by the
 * engine (decision.ts decides what may run) and written by the
 * trust command.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readWorkspaceFile } from '../common/file-size';
import { dirname, join, relative } from 'node:path';
import * as z from 'zod/mini';
import { realOf } from '../common/real-path';
import { checkoutTop } from '../project/checkout';
import { configFolder } from '../common/user-folders';

const EntryShape = z.object({
  /** The repository's top (real path). */
  path: z.string(),
  /** Each `.lsp.json` in it when it was trusted, by path from the top, with its content's hash. */
  configs: z.record(z.string(), z.string()),
  trusted: z.string(),
});
export type TrustEntry = z.infer<typeof EntryShape>;
const StoreShape = z.object({ version: z.literal(1), repositories: z.array(EntryShape) });

export function trustFile(env: Record<string, string | undefined>): string {
  return join(configFolder(env), 'trust.json');
}

export const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The repositories the user trusts; none where the file is missing or not one (it is theirs to fix). */
export function readTrust(env: Record<string, string | undefined>): TrustEntry[] {
  try {
    const parsed = StoreShape.safeParse(JSON.parse(readFileSync(trustFile(env), 'utf8')));
    return parsed.success ? parsed.data.repositories : [];
  } catch {
    return [];
  }
}

export function writeTrust(env: Record<string, string | undefined>, entries: TrustEntry[]): void {
  const file = trustFile(env);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ version: 1, repositories: entries }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/**
 * The folder trust is recorded for, for anything in `dir`: the top of its
 * checkout (the nearest `.git` entry, whatever git says of it), else `dir`.
 */
export function repositoryOf(dir: string): string {
  const real = realOf(dir);
  return realOf(checkoutTop(real) ?? real);
}

/** Folders never holding a `.lsp.json` the runtime would read for the repository's files. */
const NOT_WALKED = new Set(['.git', 'node_modules']);

/**
 * What `lspq trust DIR` records: the repository's top and every `.lsp.json`
 * in it as it is now, by path from the top. One found later, or changed,
 * is not read until trusted again (the decision compares the hash).
 */
export function entryFor(dir: string): TrustEntry {
  const top = repositoryOf(dir);
  const configs: Record<string, string> = {};
  const walk = (d: string, depth: number) => {
    if (depth > 12) return;
    const config = join(d, '.lsp.json');
    try {
      const read = readWorkspaceFile(config, 'configuration', { follow: false, quiet: true });
      if (read.read) configs[relative(top, config)] = hashOf(read.bytes);
    } catch {}
    let names: string[] = [];
    try {
      names = readdirSync(d);
    } catch {}
    for (const name of names) {
      if (NOT_WALKED.has(name)) continue;
      const p = join(d, name);
      try {
        // A linked folder is not walked: its configuration is read where it really is, which this entry does not cover.
        if (lstatSync(p).isDirectory()) walk(p, depth + 1);
      } catch {}
    }
  };
  walk(top, 0);
  return { path: top, configs, trusted: new Date().toISOString() };
}
