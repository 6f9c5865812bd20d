/**
 * `lspq daemon status | stop | restart | logs`: run in the command's own
 * process (its declaration says so), since it is about the daemon, not a
 * question for it. It uses the daemon's control requests, the only other
 * thing the socket carries.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { ArgsDef } from 'citty';
import { askStatus, startDaemon, stopDaemon } from '../../cli/daemon-client';
import { type CommandOutput, usage } from '../../common/errors';
import { socketPath, stateFile } from '../../common/socket';
import { defineCommand, present, type RunContext } from '../define';
import { serverArgs } from '../common-args';
import type { Parsed } from '../flags';
import { jsonWanted } from '../options';
import { daemonStatusJson, renderDaemonStatus } from './render';
import { DaemonStatusShape } from './shape';

export const DAEMON_ACTIONS = ['status', 'stop', 'restart', 'logs'] as const;

const ARGS = {
  ...serverArgs,
  action: {
    type: 'positional',
    required: false,
    description: 'status | stop | restart | logs',
    valueHint: 'ACTION',
  },
} as const satisfies ArgsDef;

const LOG_TAIL_LINES = 100;

const isAction = (word: string): word is (typeof DAEMON_ACTIONS)[number] =>
  (DAEMON_ACTIONS as readonly string[]).includes(word);

async function run(args: Parsed<typeof ARGS>, { line }: Pick<RunContext, 'line'>): Promise<CommandOutput> {
  const action = args.action ?? 'status';
  if (!isAction(action)) throw usage(`unknown daemon action '${action}'; use one of: ${DAEMON_ACTIONS.join(', ')}`);
  const path = socketPath(line.env);
  if (action === 'logs') {
    const file = stateFile(path, 'daemon.log');
    if (!existsSync(file)) return { stdout: '', stderr: `no daemon log yet at ${file}`, exit: 1 };
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    return { stdout: `${lines.slice(-LOG_TAIL_LINES).join('\n')}\n`, exit: 0 };
  }
  if (action === 'stop') {
    const was = await stopDaemon(path);
    return was ? { stdout: 'daemon stopped\n', exit: 0 } : { stdout: '', warnings: ['no daemon was running'], exit: 0 };
  }
  if (action === 'restart') {
    await stopDaemon(path);
    await startDaemon(path);
  }
  const status = await askStatus();
  if (!status) {
    return {
      stdout: jsonWanted(args.json, line.env) ? `${JSON.stringify({ running: false })}\n` : '',
      stderr: 'no daemon is running; the next query starts one',
      exit: 1,
    };
  }
  return present(status, args.json, { human: renderDaemonStatus, json: daemonStatusJson, found: () => true }, line);
}

export const daemon = defineCommand({
  summary: 'status | stop | restart | logs of the background daemon',
  args: ARGS,
  values: { action: DAEMON_ACTIONS },
  examples: ['lspq daemon status', 'lspq daemon logs', 'lspq daemon stop'],
  process: 'here',
  run,
  shape: DaemonStatusShape,
});
