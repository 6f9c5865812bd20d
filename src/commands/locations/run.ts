/** def, typedef, impls and refs differ only in the question they ask: one run makes each. */
import { usage } from '../../common/errors';
import { present, type RunContext } from '../define';
import { positiveInt, type TargetFlags, targetFrom } from '../options';
import type { LocationsOp } from './question';
import { locationsJson, renderLocations } from './render';
import { displayPath } from '../../common/paths';
import { staleNote, targetWords } from '../../render/place-json';

/** The line said of files a Go question could not search. */
export const unsearchedNote = (files: string, because = 'no build configuration lspq tried compiles them') =>
  `not searched: ${files} (${because}); the answer may lack their places`;

/** A declaration longer than this is cut unless --max-lines says otherwise. */
const DEFAULT_BODY_LINES = 200;

export interface LocationFlags extends TargetFlags {
  'include-declaration'?: boolean;
  body?: boolean;
  'max-lines'?: string;
}

/** The run of a command whose one question, `op`, is answered with locations; `none` says what was not found (`references to`). */
export function locationsRun<O extends LocationsOp>(op: O, none: string) {
  return async (args: LocationFlags, { line, ask }: RunContext<O>) => {
    const maxLines = positiveInt(args['max-lines'], '--max-lines');
    if (maxLines !== undefined && !args.body) throw usage('--max-lines cuts a --body; add --body');
    const query = {
      op,
      target: targetFrom(args, line.cwd),
      ...(args['include-declaration'] ? { includeDeclaration: true } : {}),
      ...(args.body ? { body: { maxLines: maxLines ?? DEFAULT_BODY_LINES } } : {}),
    };
    const result = await ask(query, args);
    const out = present(
      result,
      args.json,
      {
        human: renderLocations,
        json: locationsJson,
        found: (r) => r.total > 0,
        nothing: (r, cwd) => `no ${none} ${targetWords(r.target, cwd)}`,
        incomplete: staleNote,
      },
      line,
    );
    // An indexer known to leave places out, asked alone: not the whole answer.
    if (result.partial)
      return {
        ...out,
        stderr: `the answer may be incomplete: ${result.server}'s index leaves out ${result.partial}; drop --index-only to ask the live server`,
        exit: 3 as const,
      };
    // Files no build configuration asked compiles may hold more: not the whole answer.
    if (!result.unsearched?.length) return out;
    const files = result.unsearched.map((p) => displayPath(p, line.cwd)).join(', ');
    return { ...out, stderr: unsearchedNote(files, result.unsearchedBecause), exit: 3 as const };
  };
}
