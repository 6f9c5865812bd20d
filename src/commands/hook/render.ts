/**
 * hook: the configurations for a person to install (the list, or one
 * agent's), and `hook run`'s answer in each agent's own protocol: silent
 * and exit 0 when an edit introduced nothing; otherwise the problems in a
 * few lines, where the agent hands them to the model (Claude Code: stderr
 * and exit 2; opencode: stdout and exit 2, added to the tool's output by
 * its plugin; Cursor: a followup_message at stop). Pure.
 */
import { SEVERITIES, type Severity } from '../../answers/diagnostics';
import type { CommandOutput } from '../../common/errors';
import { displayPath } from '../../common/paths';
import { diagnosticLines } from '../../render/diagnostic-lines';
import { plural, type RenderOptions } from '../../render/style';
import { verdict } from '../../render/verdict';
import { AGENTS, type Agent, agentConfig } from './configs';
import type { HookResult } from './question';

/** Past this many lines the model is told how many more there are and how to see them. */
export const MOST = 20;

/**
 * The command that lists every problem the edit introduced, the lines cut
 * included: diag of the files they lie in, at the severity told, where
 * that lists them and nothing else (listedByFiles); else none, and every
 * line is told.
 */
export function listingCommand(r: HookResult, cwd: string): string | undefined {
  if (!r.listedByFiles) return undefined;
  const files = [...new Set(r.diagnostics.map((d) => displayPath(d.path, cwd)))];
  // A path with a shell's special characters is quoted, one that starts with a dash put after --: it runs as written.
  const word = (w: string) => (/^[\w./@:+-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);
  const severity = r.severity === 'hint' ? [] : ['--severity', r.severity];
  return [
    'lspq',
    'diag',
    ...severity,
    ...(files.some((f) => f.startsWith('-')) ? ['--'] : []),
    ...files.map(word),
  ].join(' ');
}

export function agentsList(): string {
  const rows = AGENTS.map((a) => {
    const c = agentConfig(a);
    return `  ${a.padEnd(9)} ${c.title}: lspq hook ${a}`;
  });
  return [
    'After-edit hooks: each agent runs `lspq diag` on the files its edit tool just changed, and is told only',
    "what that edit introduced (silent when it introduced nothing); as a session starts, the project's servers are",
    "prepared in the background, so the first edit is checked warm. Print one agent's configuration:",
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
  const listing = listingCommand(r, o.cwd);
  // Cut only where a command lists them all: else every line is the model's to read.
  const shown = listing ? r.diagnostics.slice(0, MOST) : r.diagnostics;
  const files = r.compared.map((c) => displayPath(c.path, o.cwd));
  const what = r.kind === 'stop' ? 'these edits' : 'this edit';
  const against = [...new Set(r.compared.map((c) => c.with))];
  const compared =
    against.length === 1 && against[0] === 'before the edit' ? '' : ` (compared with ${against.join(', ')})`;
  const cut = r.diagnostics.length - shown.length;
  const more = cut > 0 ? `... and ${cut} more; all ${r.diagnostics.length}: ${listing}\n` : '';
  const counts = SEVERITIES.map((s) => [s, r.diagnostics.filter((d) => d.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => plural(n, s));
  return `lspq: ${what} of ${files.join(', ')} introduced ${counts.join(', ')}${compared}:\n${diagnosticLines(shown, o)}${more}`;
}

/** The problems' counts, for the one rule (verdict): each told the agent fails the edit. */
function counted(r: HookResult): Record<Severity, number> {
  const summary: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const d of r.diagnostics) summary[d.severity]++;
  return summary;
}

export function hookOutput(agent: Agent, r: HookResult, o: RenderOptions): CommandOutput {
  // The diagnostics are those at the severity asked already: any of them fails the edit.
  const judged = verdict({ ...r, summary: counted(r) }, 'hint', o.cwd);
  const found = judged.failing;
  // A word for the person (never the model) where the check was not whole; a file it need not check, a note.
  const note = judged.gaps.length ? `the edit was not wholly checked: ${judged.gaps.join('; ')}` : undefined;
  const warnings = [...judged.notes, ...(note ? [note] : [])];
  const said = warnings.length ? { warnings } : {};
  if (agent === 'cursor') {
    // Cursor reads JSON from every hook; the stop hook's followup_message is what its agent takes up.
    const reply = r.kind === 'stop' && found ? { followup_message: problems(r, o).trimEnd() } : {};
    return { stdout: `${JSON.stringify(reply)}\n`, exit: 0, ...said };
  }
  if (found) {
    const text = problems(r, o);
    // Claude Code hands a hook's stderr to the model on exit 2; opencode's plugin adds stdout to the tool's output.
    return agent === 'claude'
      ? { stdout: '', stderr: text.slice('lspq: '.length).trimEnd(), exit: 2, ...said }
      : { stdout: text, exit: 2, ...said };
  }
  // Exit 1: a non-blocking error to Claude Code, shown to the person and not the model.
  if (note) return { stdout: '', stderr: note, exit: 1, ...(judged.notes.length ? { warnings: judged.notes } : {}) };
  return { stdout: '', exit: 0, ...said };
}
