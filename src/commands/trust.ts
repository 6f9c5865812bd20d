/**
 * trust: lets a repository's own code run (the servers and settings of its
 * `.lsp.json`, the servers it carries in `node_modules/.bin` or its
 * `.venv`), recorded in the user's configuration; --list, --revoke.
 */
import { usage } from '../errors';
import { displayPath, resolvePath } from '../protocol/paths';
import { entryFor, readTrust, type TrustEntry, trustFile, writeTrust } from '../trust/store';
import type { Run } from './context';
import { jsonWanted } from './options';

const shown = (e: TrustEntry, cwd: string) => {
  const configs = Object.keys(e.configs);
  return `${displayPath(e.path, cwd) || '.'}${configs.length ? ` (with ${configs.join(', ')} as it is now)` : ''}`;
};

export const trust: Run<'trust'> = async (args, { line }) => {
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
  const entry = entryFor(resolvePath(line.cwd, args.dir ?? '.'));
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
    stderr: `trusted ${shown(entry, line.cwd)}: its own servers and settings run from now on`,
    exit: 0,
  };
};
