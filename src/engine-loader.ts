/**
 * Loads the engine (src/engine.ts) at run time, from the binary's second
 * entry point (scripts/build.ts). The name is computed so the bundler cannot
 * follow it: a plain variable it folds, and the engine (the LSP library and
 * every handler) then sat inside the command's bundle, which every question
 * pays to start.
 */
export function loadEngine(): typeof import('./engine') {
  // The binary starts with the JIT held back (scripts/build.ts); the engine
  // runs long and hot (JSON-RPC, position conversion), so it gets the normal JIT.
  Bun.unsafe.setJITPolicy(1);
  const engine = ['.', 'engine.js'].join('/');
  return require(engine) as typeof import('./engine');
}
