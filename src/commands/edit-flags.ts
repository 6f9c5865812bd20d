/** The flags of the commands that write an edit, turned into what their question carries. */
import type { CommandOutput } from '../common/errors';
import type { Verification } from '../answers/edits';

/** --verify and --verify-all (which implies it); with --dry-run, checked in memory and nothing written. */
export function verifyFlags(args: { verify?: boolean; 'verify-all'?: boolean }) {
  const verifyAll = args['verify-all'] === true;
  const verify = args.verify === true || verifyAll;
  return verify ? { verify, ...(verifyAll ? { verifyAll } : {}) } : {};
}

/**
 * An edit's output with the exit code --verify judged: 1 put back (or, in
 * a dry run, an error it would introduce), 3 not verified (its diagnostics
 * not whole).
 */
export function withVerdict(out: CommandOutput, v: Verification | undefined): CommandOutput {
  if (v?.reverted || (v?.written === false && v.introduced.length > 0)) return { ...out, exit: 1 };
  return v?.incomplete?.length ? { ...out, exit: 3 } : out;
}
