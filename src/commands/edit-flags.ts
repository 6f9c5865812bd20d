/** The flags of the commands that write an edit, turned into what their question carries. */
import { usage, type CommandOutput } from '../common/errors';
import type { Verification } from '../answers/edits';

/** --verify and --verify-all (which implies it); a dry run writes nothing to verify. */
export function verifyFlags(args: { verify?: boolean; 'verify-all'?: boolean; 'dry-run'?: boolean }) {
  const verifyAll = args['verify-all'] === true;
  const verify = args.verify === true || verifyAll;
  if (verify && args['dry-run']) throw usage('--verify checks what was written; drop --dry-run (or --verify)');
  return verify ? { verify, ...(verifyAll ? { verifyAll } : {}) } : {};
}

/** An edit's output with the exit code --verify judged: 1 put back, 3 not verified (its diagnostics not whole). */
export function withVerdict(out: CommandOutput, v: Verification | undefined): CommandOutput {
  if (v?.reverted) return { ...out, exit: 1 };
  return v?.incomplete?.length ? { ...out, exit: 3 } : out;
}
