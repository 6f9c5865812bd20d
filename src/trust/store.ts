/**
 * The trust store: the repositories whose own code the user lets run
 * (`lspq trust`), in the user's configuration folder (`trust.json`), each
 * with its real path and a hash of each of its `.lsp.json`. Read by the
 * engine (lsp/servers/trust.ts decides what may run) and written by the
 * trust command.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import * as z from 'zod/mini';
import { checkoutOf, realOf } from '../project/checkout';
import { neverSources } from '../project/folders';

export { realOf };

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
  const base = env.XDG_CONFIG_HOME || join(env.HOME || '/', '.config');
  return join(base, 'lspq', 'trust.json');
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
 * The repository a folder belongs to, as trust judges it: the top of its
 * checkout (vouched for by git or not: a claimed one is still one
 * repository), else the folder itself.
 */
export function repositoryOf(dir: string, env: Record<string, string | undefined>): string {
  const real = realOf(dir);
  return realOf(checkoutOf(real, env)?.top ?? real);
}

/** What `lspq trust DIR` records: the repository's top and every `.lsp.json` in it as it is now. */
export function entryFor(dir: string, env: Record<string, string | undefined>): TrustEntry {
  const top = repositoryOf(dir, env);
  const configs: Record<string, string> = {};
  const walk = (d: string, depth: number) => {
    if (depth > 8) return;
    const config = join(d, '.lsp.json');
    if (existsSync(config)) configs[relative(top, config)] = hashOf(readFileSync(config));
    let names: string[] = [];
    try {
      names = readdirSync(d);
    } catch {}
    for (const name of names) {
      const p = join(d, name);
      if (name.startsWith('.') || neverSources(p, name)) continue;
      try {
        if (statSync(p).isDirectory()) walk(p, depth + 1);
      } catch {}
    }
  };
  walk(top, 0);
  return { path: top, configs, trusted: new Date().toISOString() };
}
