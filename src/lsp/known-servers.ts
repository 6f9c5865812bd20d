/**
 * What lspq learned of each server binary the last times it ran, kept in
 * the user's cache (`known-servers.json`): its version line, and the
 * capabilities its `initialize` answer gave with the requests it
 * registered after, by server and binary (its real path, size and time, so
 * an upgraded binary is a new one). `lspq servers` and `servers --for`
 * answer from it, and start nothing. The file is checked when read, not
 * trusted: a bad one is as good as none.
 */
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import * as z from 'zod/mini';
import { cacheFolder } from '../common/user-folders';

/** Servers remembered at most: the least recently seen go first. */
const KEPT = 200;

/** The parts of capabilities lspq reads (servers --for, complete-diagnostics.ts), checked; the rest kept as they came. */
const CapabilitiesShape = z.looseObject({
  executeCommandProvider: z.optional(z.looseObject({ commands: z.array(z.string()) })),
  workspace: z.optional(
    z.looseObject({ fileOperations: z.optional(z.looseObject({ willRename: z.optional(z.unknown()) })) }),
  ),
});

const KnownShape = z.object({
  versions: z.record(z.string(), z.object({ line: z.optional(z.string()), at: z.string() })),
  servers: z.record(
    z.string(),
    z.object({ capabilities: CapabilitiesShape, registered: z.array(z.string()), at: z.string() }),
  ),
});
type Known = z.infer<typeof KnownShape>;

/** What a server said of itself when it last ran. */
export interface KnownServer {
  capabilities: ServerCapabilities;
  /** Methods it registered after it started (pyright's pull diagnostics). */
  registered: string[];
  /** When: an ISO date. */
  at: string;
}

const fileOf = (env: Record<string, string | undefined>) => join(cacheFolder(env), 'known-servers.json');

/** A binary as it is now: its real path, size and time; undefined where it cannot be read. */
export function binaryStamp(binary: string): string | undefined {
  try {
    const real = realpathSync(binary);
    const st = statSync(real);
    return `${real}\0${st.size}\0${st.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** The file read and checked, held while it does not change (a question may look up many binaries). */
let held: { file: string; stamp: string; known: Known } | undefined;

function read(env: Record<string, string | undefined>): Known {
  const file = fileOf(env);
  let stamp: string;
  try {
    const st = statSync(file);
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    return { versions: {}, servers: {} };
  }
  if (held?.file === file && held.stamp === stamp) return held.known;
  let known: Known = { versions: {}, servers: {} };
  try {
    const parsed = KnownShape.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) known = parsed.data;
  } catch {}
  held = { file, stamp, known };
  return known;
}

/** Changes the file whole (a temporary file renamed over it); a cache that cannot be written is done without. */
function update(env: Record<string, string | undefined>, change: (known: Known) => void): void {
  const file = fileOf(env);
  const known = structuredClone(read(env));
  change(known);
  const parts: Record<string, { at: string }>[] = [known.versions, known.servers];
  for (const part of parts) {
    const keys = Object.entries(part)
      .sort(([, a], [, b]) => a.at.localeCompare(b.at))
      .map(([key]) => key);
    for (const key of keys.slice(0, Math.max(0, keys.length - KEPT))) delete part[key];
  }
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, `${JSON.stringify(known)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** The version line remembered for a binary as it is now: `{}` where it printed none, undefined where never asked. */
export function knownVersion(env: Record<string, string | undefined>, binary: string): { line?: string } | undefined {
  const stamp = binaryStamp(binary);
  const v = stamp ? read(env).versions[stamp] : undefined;
  return v ? (v.line === undefined ? {} : { line: v.line }) : undefined;
}

export function rememberVersion(
  env: Record<string, string | undefined>,
  binary: string,
  line: string | undefined,
): void {
  const stamp = binaryStamp(binary);
  if (!stamp) return;
  update(env, (known) => {
    known.versions[stamp] = { ...(line === undefined ? {} : { line }), at: new Date().toISOString() };
  });
}

/** What server `id` said of itself when this binary, as it is now, last ran. */
export function knownServer(
  env: Record<string, string | undefined>,
  id: string,
  binary: string,
): KnownServer | undefined {
  const stamp = binaryStamp(binary);
  const s = stamp ? read(env).servers[`${id}\0${stamp}`] : undefined;
  // The cache's shape checks the capabilities lspq reads; LSP's type names many more.
  return s ? { capabilities: s.capabilities as ServerCapabilities, registered: s.registered, at: s.at } : undefined;
}

export function rememberServer(
  env: Record<string, string | undefined>,
  id: string,
  binary: string,
  said: { capabilities: ServerCapabilities; registered: string[] },
): void {
  const stamp = binaryStamp(binary);
  if (!stamp) return;
  const capabilities = CapabilitiesShape.safeParse(said.capabilities);
  if (!capabilities.success) return;
  update(env, (known) => {
    known.servers[`${id}\0${stamp}`] = {
      capabilities: capabilities.data,
      registered: [...new Set(said.registered)],
      at: new Date().toISOString(),
    };
  });
}
