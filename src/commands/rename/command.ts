/** rename: the symbol at a target, across the workspace; --dry-run shows the diff. */
import { usage } from '../../common/errors';
import { editArgs, targetArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { verifyFlags, withVerdict } from '../edit-flags';
import { targetFrom } from '../options';
import { renameJson, renderRename } from './render';
import { RenameShape } from './shape';
import { targetWords } from '../../render/place-json';

export const rename = defineCommand({
  summary: 'rename the symbol at TARGET across the workspace; --dry-run shows the diff',
  args: {
    ...targetArgs,
    'new-name': { type: 'positional', required: false, description: 'The new name', valueHint: 'NEWNAME' },
    'dry-run': { type: 'boolean', description: 'Print the diff and write nothing' },
    'this-build-only': {
      type: 'boolean',
      description: "Go: rename this platform's build only",
    },
    ...editArgs,
  },
  examples: [
    'lspq rename geometry.go:17:TotalArea SumOfAreas --dry-run',
    'lspq rename shapes/geometry.py:15:total_area area_sum',
    'lspq rename --symbol Circle Round --dry-run',
  ],
  process: 'daemon',
  mcp: { kind: 'edit', dryRun: '--dry-run', required: ['new-name'] },
  writes: true,
  handlers: { rename: async () => (await import('./handler')).rename },
  run: async (args, { line, ask }) => {
    // With --symbol the one positional word is the new name.
    const newName = args.symbol ? (args['new-name'] ?? args.target) : args['new-name'];
    const targetWord = args.symbol ? undefined : args.target;
    if (!newName) throw usage('missing NEWNAME: lspq rename TARGET NEWNAME (or --symbol NAME NEWNAME)');
    const target = targetFrom({ ...args, target: targetWord }, line.cwd);
    const query = {
      op: 'rename' as const,
      target,
      newName,
      write: args['dry-run'] !== true,
      allowOutside: args['allow-outside'] === true,
      ...(args['this-build-only'] ? { thisBuildOnly: true } : {}),
      ...verifyFlags(args),
    };
    const result = await ask(query, args);
    const out = present(
      result,
      args.json,
      {
        human: renderRename,
        json: renameJson,
        found: (r) => r.files.length > 0,
        nothing: (r, cwd) => `${r.server} changes no file to rename ${targetWords(r.target, cwd)} to '${r.newName}'`,
      },
      line,
    );
    return withVerdict(out, result.verification);
  },
  shape: RenameShape,
  capabilities: { rename: (c) => !!c.renameProvider },
});
