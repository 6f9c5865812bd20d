import { defineCommand } from 'citty';
import { existsSync, readFileSync } from 'node:fs';
import { usage } from '../errors';
import type { DaemonStatus } from '../protocol/messages';
import { socketPath, stateFile } from '../protocol/socket';
import { daemonStatusJson, renderDaemonStatus } from '../render/daemon';
import { outputArgs } from './_shared';
import { localCaller, present, type CommandOutput } from './_run';

const ACTIONS = ['status', 'stop', 'restart', 'logs'] as const;
const LOG_TAIL_LINES = 100;

export default defineCommand({
  meta: { name: 'daemon', description: 'The background daemon: status | stop | restart | logs' },
  args: {
    ...outputArgs,
    action: { type: 'positional', required: false, description: ACTIONS.join(' | '), valueHint: 'ACTION' },
  },
  run: async ({ args }): Promise<CommandOutput> => {
    const action = (args.action ?? 'status') as string;
    if (!(ACTIONS as readonly string[]).includes(action)) throw usage(`unknown daemon action '${action}'; use one of: ${ACTIONS.join(', ')}`);
    const { askDaemon, startDaemon, stopDaemon } = require('./daemon-client') as typeof import('./daemon-client');
    const path = socketPath(process.env);
    if (action === 'logs') {
      const file = stateFile(path, 'daemon.log');
      if (!existsSync(file)) return { stdout: '', stderr: `no daemon log yet at ${file}`, exit: 1 };
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      return { stdout: `${lines.slice(-LOG_TAIL_LINES).join('\n')}\n`, exit: 0 };
    }
    if (action === 'stop') {
      const was = await stopDaemon(path);
      return { stdout: was ? 'daemon stopped\n' : '', stderr: was ? undefined : 'no daemon was running', exit: 0 };
    }
    if (action === 'restart') {
      await stopDaemon(path);
      await startDaemon(path);
    }
    const status = (await askDaemon({ op: 'status' }, { start: false })) as DaemonStatus | undefined;
    if (!status) return { stdout: args.json ? `${JSON.stringify({ running: false })}\n` : '', stderr: 'no daemon is running; the next query starts one', exit: 1 };
    return present(status, args, { human: renderDaemonStatus, json: daemonStatusJson, found: () => true }, localCaller());
  },
});
