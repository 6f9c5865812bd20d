/**
 * hook: the configurations for a person to install (the list, or one
 * agent's), and `hook run`'s answer in each agent's own protocol: silent
 * and exit 0 when an edit introduced nothing; otherwise the problems in a
 * few lines, where the agent hands them to the model (Claude Code: stderr
 * and exit 2; opencode: stdout and exit 2, added to the tool's output by
 * its plugin; Cursor: a followup_message at stop). Pure.
 */
import { SEVERITIES } from '../../answers/diagnostics';
import type { CommandOutput } from '../../common/errors';
import { displayPath } from '../../common/paths';
import { diagnosticLines } from '../../render/diagnostic-lines';
import { plural, type RenderOptions } from '../../render/style';
import { AGENTS, type Agent, agentConfig } from './configs';
import type { HookResult } from './question';

/** Past this many lines the model is told how many more there are and how to see them. */
const MOST = 20;

export function agentsList(): string {
  const rows = AGENTS.map((a) => {
    const c = agentConfig(a);
    return `  ${a.padEnd(9)} ${c.title}: lspq hook ${a}`;
  });
  return [
    'After-edit hooks: each agent runs `lspq diag` on the files its edit tool just changed, and is told only',
    "what that edit introduced (silent when it introduced nothing). Print one agent's configuration:",
    ...rows,
    '',
  ].join('\n');
}

export function agentText(agent: Agent): { stdout: string; stderr: string } {
  const c = agentConfig(agent);
  return { stdout: c.config, stderr: `${c.title}: put this in ${c.file}; ${c.how}` };
}

export function hookJson(agents: readonly Agent[]) {
  return { agents: agents.map((a) => agentConfig(a)) };
}

/** What the edits introduced, in few words: a line naming them, then diag's lines. */
function problems(r: HookResult, o: RenderOptions): string {
  const shown = r.diagnostics.slice(0, MOST);
  const files = r.compared.map((c) => displayPath(c.path, o.cwd));
  const what = r.kind === 'stop' ? 'these edits' : 'this edit';
  const against = [...new Set(r.compared.map((c) => c.with))];
  const compared =
    against.length === 1 && against[0] === 'before the edit' ? '' : ` (compared with ${against.join(', ')})`;
  const more =
    r.diagnostics.length > MOST ? `... and ${r.diagnostics.length - MOST} more: lspq diag ${files.join(' ')}\n` : '';
  const counts = SEVERITIES.map((s) => [s, r.diagnostics.filter((d) => d.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => plural(n, s));
  return `lspq: ${what} of ${files.join(', ')} introduced ${counts.join(', ')}${compared}:\n${diagnosticLines(shown, o)}${more}`;
}

/** A word for the person (never the model) where the check was not whole. */
function notWhole(r: HookResult, o: RenderOptions): string | undefined {
  const parts = [
    ...r.withheld.map((w) => `${w.server} left out ${w.missing}`),
    ...(r.incomplete.length
      ? [`diagnostics of ${r.incomplete.map((p) => displayPath(p, o.cwd)).join(', ')} did not come in time`]
      : []),
  ];
  return parts.length ? `the edit was not wholly checked: ${parts.join('; ')}` : undefined;
}

export function hookOutput(agent: Agent, r: HookResult, o: RenderOptions): CommandOutput {
  const found = r.diagnostics.length > 0;
  const note = notWhole(r, o);
  if (agent === 'cursor') {
    // Cursor reads JSON from every hook; the stop hook's followup_message is what its agent takes up.
    const reply = r.kind === 'stop' && found ? { followup_message: problems(r, o).trimEnd() } : {};
    return { stdout: `${JSON.stringify(reply)}\n`, exit: 0, ...(note ? { warnings: [note] } : {}) };
  }
  if (found) {
    const text = problems(r, o);
    // Claude Code hands a hook's stderr to the model on exit 2; opencode's plugin adds stdout to the tool's output.
    return agent === 'claude'
      ? { stdout: '', stderr: text.slice('lspq: '.length).trimEnd(), exit: 2, ...(note ? { warnings: [note] } : {}) }
      : { stdout: text, exit: 2, ...(note ? { warnings: [note] } : {}) };
  }
  // Exit 1: a non-blocking error to Claude Code, shown to the person and not the model.
  return note ? { stdout: '', stderr: note, exit: 1 } : { stdout: '', exit: 0 };
}
