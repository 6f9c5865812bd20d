/**
 * A "language server" that reads its input and never answers, not even
 * initialize, and ignores SIGTERM: only SIGKILL ends it. For the tests of
 * a question's own --timeout on a server start and of a daemon that stops
 * while such a server is starting.
 */
process.on('SIGTERM', () => {});
process.stdin.on('data', () => {});
setInterval(() => {}, 60_000);
