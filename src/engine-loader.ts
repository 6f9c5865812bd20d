/**
 * Loads the engine (src/engine.ts) at run time. The name is a variable so
 * the bundler leaves the engine out of the command's bundle: starting that
 * bundle cost 1.5 ms more with the LSP library inside it, even unused.
 */
export function loadEngine(): typeof import('./engine') {
  // The binary starts with the JIT held back (scripts/build.ts); the engine
  // runs long and hot (JSON-RPC, position conversion), so it gets the normal JIT.
  const engine = './engine.js';
  const loaded = require(engine) as typeof import('./engine');
  Bun.unsafe.setJITPolicy(1);
  return loaded;
}
