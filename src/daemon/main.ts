import type { ExitCode } from '../errors';

export async function runDaemon(): Promise<ExitCode> {
  return 3;
}
