/**
 * A command's handler asked in this process, through the typed seam
 * (engine/dispatch.ts with the commands' table), on a small project whose
 * one server is test/fakes/canned.ts answering what the test canned: the
 * handler-level tests need no real language server and no binary, as
 * cli/cli tests a command through its runF seam.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ANSWERERS } from '../../src/commands/handlers';
import type { AnswerOf, Op, Operations, QueryOf, Question } from '../../src/commands/operations';
import { callerContext } from '../../src/commands/options';
import { type Host, runCommandLine } from '../../src/commands/run-command-line';
import type { CommandOutput } from '../../src/common/errors';
import type { CommandLine } from '../../src/common/messages';
import { scanWords } from '../../src/common/words';
import type { EngineContext } from '../../src/engine/context';
import { dispatch } from '../../src/engine/dispatch';
import { ServerPool } from '../../src/lsp/manager';
import type { Canned } from '../fakes/canned';
import { REPO } from './lspq';

export class FakeSession {
  /** The project: the test's files, a `.lsp.json` naming the canned server for `.fake` files, and what it was canned. */
  readonly dir: string;
  readonly warnings: string[] = [];
  private readonly pool = new ServerPool();
  private readonly context: EngineContext;

  /** `canned` may be made from the project's folder, for answers that name its files. */
  constructor(
    canned: Canned | ((dir: string) => Canned),
    files: Record<string, string> = { 'a.fake': 'hello world\n' },
  ) {
    const base = join(REPO, 'test', '.scratch');
    mkdirSync(base, { recursive: true });
    this.dir = mkdtempSync(join(base, 'handler-'));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(this.dir, file)), { recursive: true });
      writeFileSync(join(this.dir, file), text);
    }
    writeFileSync(
      join(this.dir, 'canned.json'),
      JSON.stringify(typeof canned === 'function' ? canned(this.dir) : canned),
    );
    const server = {
      command: process.execPath,
      args: [join(REPO, 'test', 'fakes', 'canned.ts'), '--canned', join(this.dir, 'canned.json')],
      extensionToLanguage: { '.fake': 'fake' },
      rootMarkers: ['.lsp.json'],
    };
    writeFileSync(join(this.dir, '.lsp.json'), JSON.stringify({ fake: server }));
    this.context = { pool: this.pool, log: () => {}, warn: (line) => this.warnings.push(line) };
  }

  /** The caller's environment: the project trusted (as the suite's fixtures are), no user config or cache read. */
  get env(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '',
      HOME: join(this.dir, '.home'),
      XDG_CONFIG_HOME: join(this.dir, '.config'),
      XDG_CACHE_HOME: join(this.dir, '.cache'),
      LSPQ_TRUST: 'all',
      LSPQ_TOOL_DIRS: '',
      NO_COLOR: '1',
    };
  }

  /** One question to its handler, by its key: the answer has the type operations.ts names. */
  ask<K extends Op>(query: QueryOf<K>): Promise<AnswerOf<K>> {
    const question: Question<K> = { ...query, ...callerContext({}, this.dir, this.env) };
    return dispatch<Operations, K>(question, this.context, ANSWERERS);
  }

  /** A command line run on the command path (its flags, its run, its presenter), its questions answered here. */
  run(words: string[]): Promise<CommandOutput> {
    const env = this.env;
    const scanned = scanWords(words, env);
    const line: CommandLine = {
      command: scanned.command ?? '',
      args: scanned.args,
      cwd: this.dir,
      env,
      color: false,
      progress: false,
      json: scanned.json,
      help: scanned.help,
    };
    const host: Host = {
      answer: <K extends Op>(request: Question<K>) => dispatch<Operations, K>(request, this.context, ANSWERERS),
    };
    return runCommandLine(line, host);
  }

  /** What the server was asked, method and params, in order (initialize and shutdown left out). */
  requests(): { method: string; params: unknown }[] {
    let text = '';
    try {
      text = readFileSync(join(this.dir, 'requests.log'), 'utf8');
    } catch {}
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  }

  /** Stops the server and removes the project. */
  async close(): Promise<void> {
    await this.pool.shutdownAll();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
