/** The flags of the commands that write an edit, turned into what their question carries. */
import { usage } from '../common/errors';

/** --verify and --verify-all (which implies it); a dry run writes nothing to verify. */
export function verifyFlags(args: { verify?: boolean; 'verify-all'?: boolean; 'dry-run'?: boolean }) {
  const verifyAll = args['verify-all'] === true;
  const verify = args.verify === true || verifyAll;
  if (verify && args['dry-run']) throw usage('--verify checks what was written; drop --dry-run (or --verify)');
  return verify ? { verify, ...(verifyAll ? { verifyAll } : {}) } : {};
}
