/** mv: move a file or folder and update what imports it, all or nothing; --dry-run shows the diff. */
import { resolvePath } from '../../common/paths';
import { usage } from '../../common/errors';
import { editArgs, serverArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { verifyFlags, withVerdict } from '../edit-flags';
import { mvJson, renderMv } from './render';
import { MvShape } from './shape';

export const mv = defineCommand({
  summary: 'move a file or folder and update what imports it, all or nothing; --dry-run shows the diff',
  args: {
    ...serverArgs,
    old: { type: 'positional', required: false, description: 'The file or folder to move', valueHint: 'OLD' },
    new: {
      type: 'positional',
      required: false,
      description: 'Where it goes (into it, when a folder that exists)',
      valueHint: 'NEW',
    },
    'dry-run': { type: 'boolean', description: 'Print the diff and the move, and change nothing' },
    verify: editArgs.verify,
    'verify-all': editArgs['verify-all'],
    'no-update': { type: 'boolean', description: 'Only move: ask no server, update no import' },
    'allow-outside': { type: 'boolean', description: 'Let the move or its edits reach outside the workspace root' },
  },
  examples: [
    'lspq mv src/circle.ts src/shapes/circle.ts --dry-run',
    'lspq mv src/square.ts src/shapes/square.ts',
    'lspq mv circle.go round.go --no-update',
  ],
  process: 'daemon',
  mcp: { kind: 'edit', dryRun: '--dry-run', required: ['old', 'new'] },
  writes: true,
  handlers: { mv: async () => (await import('./handler')).mv },
  run: async (args, { line, ask }) => {
    if (!args.old || !args.new) throw usage('missing OLD or NEW: lspq mv OLD NEW (a file or a folder)');
    const query = {
      op: 'mv' as const,
      from: resolvePath(line.cwd, args.old),
      to: resolvePath(line.cwd, args.new),
      update: args['no-update'] !== true,
      write: args['dry-run'] !== true,
      allowOutside: args['allow-outside'] === true,
      ...verifyFlags(args),
    };
    const result = await ask(query, args);
    const out = present(result, args.json, { human: renderMv, json: mvJson, found: () => true }, line);
    return withVerdict(out, result.verification);
  },
  shape: MvShape,
  capabilities: { mv: (c) => !!c.workspace?.fileOperations?.willRename },
});
