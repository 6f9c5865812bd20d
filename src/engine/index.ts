/**
 * The engine's language-server half: the LSP client, the server pool, the
 * handlers, and the daemon that keeps them warm; with the command half
 * (src/commands) inside, since the daemon runs every forwarded command
 * line. An entry point of its own (src/bundles.ts): only the daemon and
 * --no-daemon load it.
 */
// The binary starts with the JIT held back (scripts/build.ts); the engine
// runs long and hot (JSON-RPC, position conversion), so it gets the normal JIT.
Bun.unsafe.setJITPolicy(1);

export { runDaemon } from '../daemon/main';
export { localEngine, type LocalEngine } from './local';
