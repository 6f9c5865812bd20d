/**
 * The engine: the daemon and the in-process answer (--no-daemon), with the
 * LSP client and every server. A second entry point of the compiled binary
 * (scripts/build.ts), loaded only when needed, so the command's own bundle,
 * which every question pays to start, stays small.
 */
export { runDaemon } from './daemon/main';
export { answerHere } from './daemon/in-process';
