/** fmt: format files (the project's formatter where its configuration names one); a diff by default, --write rewrites them, --check only tells. */
import { resolvePath } from '../../common/paths';
import { usage } from '../../common/errors';
import { editArgs, serverArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { fmtJson, notTheProjectsCheck, renderFmt } from './render';
import { FmtShape } from './shape';

/** `START-END` of --range, 1-based and inclusive. */
function lineRange(value: string): { start: number; end: number } {
  const m = /^(\d+)(?:-(\d+))?$/.exec(value);
  const start = Number(m?.[1]);
  const end = Number(m?.[2] ?? m?.[1]);
  if (!m || start < 1 || end < start)
    throw usage(
      `--range takes START-END, lines counted from 1 with START <= END (for example --range 10-20), not '${value}'`,
    );
  return { start, end };
}

export const fmt = defineCommand({
  summary: 'format FILEs as the project does: a diff by default, --write rewrites them, --check only tells',
  args: {
    ...serverArgs,
    files: { type: 'positional', required: false, description: 'Files to format', valueHint: 'FILE...' },
    range: { type: 'string', description: 'Only these lines (one file)', valueHint: 'START-END' },
    write: { type: 'boolean', description: 'Rewrite the files (each whole, or none if any cannot be written)' },
    check: { type: 'boolean', description: 'Change nothing; list the files that would change and exit 1 if any' },
    'allow-outside': editArgs['allow-outside'],
  },
  examples: ['lspq fmt main.go', 'lspq fmt --check *.go', 'lspq fmt src/geometry.ts --range 3-5 --write'],
  process: 'daemon',
  mcp: { kind: 'edit', write: '--write' },
  writes: true,
  variadic: true,
  handlers: { fmt: async () => (await import('./handler')).fmt },
  run: async (args, { line, ask }) => {
    if (args._.length === 0) throw usage('missing FILE: lspq fmt FILE... (--write rewrites them, --check only tells)');
    if (args.write && args.check) throw usage('give --write or --check, not both');
    if (args.range !== undefined && args._.length > 1) throw usage('--range formats lines of one file; name one FILE');
    const mode = args.check ? 'check' : args.write ? 'write' : 'diff';
    const files = args._.map((f) => resolvePath(line.cwd, f));
    const result = await ask(
      {
        op: 'fmt',
        files,
        write: mode === 'write',
        allowOutside: args['allow-outside'] === true,
        ...(args.range !== undefined ? { lines: lineRange(args.range) } : {}),
      },
      args,
    );
    const out = present(
      result,
      args.json,
      {
        human: (r, o) => renderFmt(r, o, mode),
        json: fmtJson,
        found: () => true,
        ...(mode === 'check' ? { incomplete: notTheProjectsCheck } : {}),
      },
      line,
    );
    // --check answers with the exit code: 1 when a file would change, as gofmt -l users expect of a check.
    return mode === 'check' && out.exit === 0 && result.files.some((f) => f.changed) ? { ...out, exit: 1 } : out;
  },
  shape: FmtShape,
  capabilities: {
    fmt: (c) => !!c.documentFormattingProvider,
    'fmt-range': (c) => !!c.documentRangeFormattingProvider,
  },
});
