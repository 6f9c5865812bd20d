/**
 * trust: lets a repository's own code run (the servers and settings of its
 * `.lsp.json`, the servers it carries in `node_modules/.bin` or its
 * `.venv`), recorded in the user's configuration; --list, --revoke.
 */
import type { ArgsDef } from 'citty';
import type { CommandOutput } from '../../common/errors';
import { usage } from '../../common/errors';
import { resolvePath } from '../../common/paths';
import { entryFor, readTrust, repositoryOf, type TrustEntry, trustFile, writeTrust } from '../../trust/store';
import { findingWords } from '../../box/containment';
import { Trust } from '../../trust/decision';
import type { WouldRun } from './explain';
import { defineCommand, type RunContext } from '../define';
import { serverArgs } from '../common-args';
import type { Parsed } from '../flags';
import { jsonWanted } from '../options';
import { TrustShape } from './shape';

const ARGS = {
  ...serverArgs,
  dir: {
    type: 'positional',
    required: false,
    description: "The repository (default: the one around the current folder; its checkout's top)",
    valueHint: 'DIR',
  },
  list: { type: 'boolean', description: 'List the trusted repositories' },
  explain: { type: 'boolean', description: 'List what trusting DIR would let run, and trust nothing' },
  revoke: { type: 'boolean', description: 'Trust DIR no longer' },
} as const satisfies ArgsDef;

const shown = (e: TrustEntry) => {
  const configs = Object.keys(e.configs);
  // The folder itself, absolute: `.` said nothing of which folder a nested question's trust took.
  return `${e.path}${configs.length ? ` (with ${configs.join(', ')} as it is now)` : ''}`;
};

async function run(args: Parsed<typeof ARGS>, { line }: Pick<RunContext, 'line'>): Promise<CommandOutput> {
  const json = jsonWanted(args.json, line.env);
  const entries = readTrust(line.env);
  if (args.list) {
    if (args.dir !== undefined || args.revoke) throw usage('--list takes no DIR and no --revoke');
    const stdout = json
      ? `${JSON.stringify({ trusted: entries })}\n`
      : entries
          .map(
            (e) =>
              `${e.path}  ${e.trusted}${Object.keys(e.configs).length ? `  ${Object.keys(e.configs).join(' ')}` : ''}\n`,
          )
          .join('');
    return { stdout, exit: 0, ...(json || entries.length ? {} : { stderr: 'no repository is trusted' }) };
  }
  const dir = resolvePath(line.cwd, args.dir ?? '.');
  if (args.explain) {
    if (args.revoke) throw usage('--explain trusts nothing and revokes nothing: give it alone');
    return explain(dir, entries, json, line, await import('./explain'));
  }
  const entry = entryFor(dir);
  const others = entries.filter((e) => e.path !== entry.path);
  if (args.revoke) {
    if (others.length === entries.length)
      return {
        stdout: json ? `${JSON.stringify({ revoked: null })}\n` : '',
        stderr: `${entry.path} was not trusted`,
        exit: 1,
      };
    writeTrust(line.env, others);
    return {
      stdout: json ? `${JSON.stringify({ revoked: entry.path })}\n` : '',
      stderr: `no longer trusted: ${entry.path}`,
      exit: 0,
    };
  }
  writeTrust(line.env, [...others, entry]);
  return {
    stdout: json ? `${JSON.stringify({ trusted: [entry], file: trustFile(line.env) })}\n` : '',
    stderr: `trusted ${shown(entry)}: its own servers and settings run from now on`,
    exit: 0,
  };
}

const SHOWN_FILES = 3;
const listed = (w: WouldRun) =>
  `  ${w.what}${w.trust ? ` (lspq trust ${w.trust} lets it run)` : ''}\n    ${w.files.slice(0, SHOWN_FILES).join(', ')}${w.files.length > SHOWN_FILES ? ` and ${w.files.length - SHOWN_FILES} more` : ''}\n`;

function explain(
  dir: string,
  entries: TrustEntry[],
  json: boolean,
  line: RunContext['line'],
  // Loaded only here: it asks the engine's decision, which no other trust command needs.
  { wouldRun }: typeof import('./explain'),
): CommandOutput {
  const repository = repositoryOf(dir);
  const trusted = entries.some((e) => e.path === repository || repository.startsWith(`${e.path}/`));
  const runs = wouldRun(repository, line);
  // Untrusted, what it holds runs in the box where this machine makes one: trusting takes it out.
  const finding = new Trust(line.env).finding;
  const contained = 'box' in finding;
  const box = findingWords(finding);
  if (json) return { stdout: `${JSON.stringify({ repository, trusted, contained, box, wouldRun: runs })}\n`, exit: 0 };
  const head = !runs.length
    ? `${repository} holds nothing that trust would let run: its servers run the same either way\n`
    : trusted
      ? `trusted, so these run as your own code (${repository}):\n`
      : contained
        ? `${box}: untrusted, these run in the box (the workspace read-only, no network, none of your files); trusting runs them outside it (${repository}):\n`
        : `${box}; trusting it would let these run (${repository}):\n`;
  return { stdout: head + runs.map(listed).join(''), exit: 0 };
}

export const trust = defineCommand({
  summary: "let a repository's own servers and .lsp.json run; --explain, --list, --revoke",
  args: ARGS,
  examples: ['lspq trust --explain', 'lspq trust', 'lspq trust --list', 'lspq trust --revoke'],
  process: 'here',
  run,
  shape: TrustShape,
});
