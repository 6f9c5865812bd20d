/**
 * apply: a unified diff written only if it introduces nothing at --fail-on:
 * checked in memory as diag --patch checks it, then written whole by the
 * writer every edit goes through; several patches are a chain, written
 * only if every one of them is clean. Without writing, the check alone is
 * diag --patch (or --dry-run, the MCP tool's default).
 */
import { SEVERITIES } from '../../answers/diagnostics';
import { usage } from '../../common/errors';
import { displayPath } from '../../common/paths';
import { verdict } from '../../render/verdict';
import { editArgs, serverArgs } from '../common-args';
import { defineCommand, present } from '../define';
import { skippedLines } from '../diag/render';
import { severityFlag } from '../options';
import { chainFor } from '../patches/source';
import { applyJson, renderApply } from './render';
import { ApplyShape } from './shape';

export const apply = defineCommand({
  summary: 'write a unified diff whole, only if diag --patch finds it introduces no problem',
  args: {
    ...serverArgs,
    patch: {
      type: 'positional',
      required: false,
      description:
        "The diff (git diff's output; - reads it from stdin); several: a chain, each on top of the ones before, written only if every one is clean",
      valueHint: 'PATCH...',
    },
    severity: {
      type: 'string',
      description: 'List this severity and worse',
      valueHint: 'S',
    },
    'fail-on': {
      type: 'string',
      description: 'Write nothing, exit 1, if it introduces this severity or worse (default error)',
      valueHint: 'S',
    },
    'dry-run': {
      type: 'boolean',
      description:
        "Check and write nothing: lspq diag --patch PATCH's check, in apply's answer (the MCP tool's default)",
    },
    'allow-outside': editArgs['allow-outside'],
  },
  values: { severity: SEVERITIES, 'fail-on': [...SEVERITIES, 'never'] },
  examples: ['lspq apply thrice.patch', 'lspq apply fix.patch --json', 'lspq apply thrice.patch fix.patch'],
  process: 'daemon',
  mcp: {
    kind: 'edit',
    dryRun: '--dry-run',
    text: { patch: "A unified diff (git diff's form)" },
    required: ['patch'],
  },
  writes: true,
  variadic: true,
  stdin: { anyWord: '-' },
  handlers: { apply: async () => (await import('./handler')).apply },
  run: async (args, { line, ask }) => {
    if (args._.length === 0)
      throw usage(
        "missing PATCH: lspq apply PATCH... (- reads one from stdin); 'lspq diag --patch PATCH' checks one without writing",
      );
    const never = args['fail-on'] === 'never' || args['fail-on'] === 'none';
    const failOn = never ? undefined : (severityFlag(args['fail-on'], '--fail-on', ['never', 'none']) ?? 'error');
    const shown = severityFlag(args.severity, '--severity');
    const steps = await chainFor(args._, line);
    // All files or none: a change the patch does not hold as text could not be written with the rest.
    const binary = steps.flatMap((s) => s.binary);
    if (binary.length > 0)
      throw usage(
        `the patch changes ${displayPath(binary[0] ?? '', line.cwd)} as a binary file, which lspq apply cannot write with the rest: apply that part with git apply, or leave it out`,
      );
    const query = {
      op: 'apply' as const,
      steps,
      write: args['dry-run'] !== true,
      allowOutside: args['allow-outside'] === true,
      ...(failOn ? { failOn } : {}),
      ...(shown ? { severity: shown } : {}),
    };
    const result = await ask(query, args);
    const out = present(result, args.json, { human: renderApply, json: applyJson, found: () => true }, line);
    // As diag says them: a file that could not be checked on its own line, then what made the check not whole.
    const skipped = skippedLines(result, line.cwd);
    if (skipped.length > 0) out.warnings = [...skipped, ...(out.warnings ?? [])];
    const judged = verdict(result, failOn, line.cwd);
    const stderr = [out.stderr, ...judged.notes, ...judged.gaps].filter((l) => l).join('\nlspq: ');
    return { ...out, ...(stderr ? { stderr } : {}), exit: judged.exit };
  },
  shape: ApplyShape,
});
