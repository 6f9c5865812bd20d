/**
 * Loads the engine (src/engine.ts: the LSP library and every handler) from
 * its own entry point: only the daemon and --no-daemon need it.
 */
import { loadEntry } from './entries';

export function loadEngine(): typeof import('./engine') {
  // The binary starts with the JIT held back (scripts/build.ts); the engine
  // runs long and hot (JSON-RPC, position conversion), so it gets the normal JIT.
  Bun.unsafe.setJITPolicy(1);
  return loadEntry<typeof import('./engine')>('engine');
}
