/**
 * Every project of a workspace loaded before a question that spans it.
 * Both TypeScript servers answer references, renames and the like from
 * the projects of their open files only: in an npm workspace, refs asked
 * from one package missed the other package's uses, and asked again after
 * a question from the other package found them. So before such a question
 * a file of each project (each tsconfig.json or jsconfig.json under the
 * root) is opened on the server and kept open, whatever was asked before.
 */
import { Requests } from '../lsp/requests';
import { type Dirent, existsSync, readdirSync } from 'node:fs';
import { readWorkspaceText } from '../common/file-size';
import { MAX_OPEN_DOCUMENTS } from '../lsp/documents';
import { projectFiles } from '../lsp/project-files';
import { findWord } from '../common/target';
import { join } from 'node:path';
import type { Position } from 'vscode-languageserver-protocol';
import { LspqError } from '../common/errors';
import type { Session } from '../lsp/manager';
import { languageIdFor } from '../lsp/servers/registry';
import { pathToUri, uriToPath } from '../lsp/uri';
import type { Deadline, HandlerContext } from './context';
import { prepare } from './sessions';
import { notSources } from '../project/folders';
import { ignoredFolders } from '../project/ignored';
import { nextTurn } from '../common/turns';

/** Projects lspq opens a file of; a workspace of more cannot be answered whole (exit 3 says so). */
export const MAX_PROJECTS = 256;
/** How long a workspace's list of projects is remembered (a new package is seen within seconds). */
const PROJECTS_CACHE_MS = 3_000;

const CONFIGS = ['tsconfig.json', 'jsconfig.json'];

/** Folders read between yields: a walk of a large workspace never holds the daemon's thread for long. */
const WALK_SLICE = 100;

/**
 * Each project folder under `root` with a file of it the server would open
 * (a source file, not a declaration file), found in slices between which
 * the daemon answers other questions.
 */
export async function projectsUnder(
  root: string,
  isSource: (path: string) => boolean,
): Promise<{ dir: string; file: string }[]> {
  const out: { dir: string; file: string }[] = [];
  // Build output is what git ignores (a workspace package kept under build/ and tracked is sources).
  const ignored = await ignoredFolders(root);
  const skip = (dir: string, name: string) => notSources(join(dir, name), ignored, name);
  let read = 0;
  const entriesOf = async (dir: string): Promise<Dirent[]> => {
    if (++read % WALK_SLICE === 0) await nextTurn();
    try {
      return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return [];
    }
  };
  /** The first source file of the project at `dir`, not in a nested project. */
  const firstSource = async (dir: string): Promise<string | undefined> => {
    const queue = [dir];
    for (let d = queue.shift(); d !== undefined; d = queue.shift()) {
      const entries = await entriesOf(d);
      if (d !== dir && entries.some((e) => CONFIGS.includes(e.name))) continue;
      const file = entries.find((e) => e.isFile() && isSource(join(d, e.name)));
      if (file) return join(d, file.name);
      for (const e of entries) if (e.isDirectory() && !skip(d, e.name)) queue.push(join(d, e.name));
    }
    return undefined;
  };
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 12) return;
    const entries = await entriesOf(dir);
    if (entries.some((e) => CONFIGS.includes(e.name))) {
      const file = await firstSource(dir);
      if (file) out.push({ dir, file });
    }
    for (const e of entries) if (e.isDirectory() && !skip(dir, e.name)) await walk(join(dir, e.name), depth + 1);
  };
  await walk(root, 0);
  return out;
}

const known = new WeakMap<Session, { at: number; projects: { dir: string; file: string }[] }>();

/** Files lspq opens for a server with no project to search (no tsconfig or jsconfig), at most. */
export const LOOSE_FILES_MAX = MAX_OPEN_DOCUMENTS / 2;

/** What the files to open must hold where the root has no project: a name as a whole word, or text in any case. */
export type Mentions = { name: string } | { text: string };

const holds = (text: string, m: Mentions) =>
  'name' in m
    ? text.includes(m.name) && text.split('\n').some((line) => findWord(line, m.name).length > 0)
    : text.toLowerCase().includes(m.text.toLowerCase());

/**
 * Opens (and keeps open) a file of every project under the session's
 * root, for a server that answers from the projects of its open files
 * (`projects` in its registry entry); then waits for it to be ready. Where
 * the root has no project (JavaScript with no jsconfig.json: the server's
 * inferred project holds only the files open), every source file that
 * `mentions` what is asked is opened instead, so the answer covers them;
 * more than LOOSE_FILES_MAX is exit 3 naming the jsconfig.json to add.
 * Returns how many projects the root holds.
 */
export async function loadProjects(
  session: Session,
  ctx: HandlerContext,
  deadline: Deadline,
  mentions?: Mentions,
): Promise<number> {
  const spec = session.client.spec;
  if (spec.projects !== 'tsconfig') return 0;
  const now = Date.now();
  let found = known.get(session);
  // A project's file may have moved or gone since it was found (lspq mv moved it): the projects are found again.
  const gone = found?.projects.some(({ file }) => !session.docs.isOpen(file) && !existsSync(file));
  if (!found || gone || now - found.at > PROJECTS_CACHE_MS) {
    const isSource = (p: string) =>
      languageIdFor(spec, p) !== undefined && !(spec.notSources ?? []).some((s) => p.endsWith(s));
    found = { at: now, projects: await projectsUnder(session.client.root, isSource) };
    known.set(session, found);
  }
  if (found.projects.length > MAX_PROJECTS)
    throw new LspqError(
      'incomplete',
      `${session.client.root} holds ${found.projects.length} projects, more than the ${MAX_PROJECTS} lspq loads at once, so an answer across all of them cannot be whole; ask with --root the package the answer lies in`,
    );
  let opened = 0;
  const toOpen =
    found.projects.length === 0 && mentions
      ? await looseFiles(session, mentions)
      : found.projects.map(({ file }) => file);
  for (const file of toOpen) {
    if (session.docs.isOpen(file)) continue;
    await session.docs.sync(file);
    session.docs.pin(file);
    opened++;
  }
  if (opened > 0) {
    ctx.log(`${spec.id}: opened ${opened} more file(s) under ${session.client.root}`);
    await prepare(session, ctx, deadline);
  }
  return found.projects.length;
}

/** The source files under a root with no project that hold what is asked, or exit 3 where there are too many. */
async function looseFiles(session: Session, mentions: Mentions): Promise<string[]> {
  const { spec, root } = session.client;
  const holding: string[] = [];
  for (const path of await projectFiles(spec, root, LOOSE_SCAN_MAX)) {
    const text = readWorkspaceText(path, 'source', { quietPastCap: true });
    if (text === undefined) continue;
    if (holds(text, mentions)) holding.push(path);
  }
  if (holding.length > LOOSE_FILES_MAX) {
    const what = 'name' in mentions ? mentions.name : mentions.text;
    throw new LspqError(
      'incomplete',
      `${root} has no tsconfig.json or jsconfig.json, so ${spec.id} searches only the files open, and ${holding.length} files hold '${what}', more than the ${LOOSE_FILES_MAX} lspq opens for one question; add a jsconfig.json (or tsconfig.json) that includes them`,
    );
  }
  return holding;
}

/** Files looked at for what they hold, at most. */
const LOOSE_SCAN_MAX = 20_000;

/** A place in a file, as the protocol names it. */
export interface At {
  uri: string;
  position: Position;
}

/** The project a file belongs to: the deepest project folder above it. */
function projectOf(path: string, projects: { dir: string }[]): string | undefined {
  let best: string | undefined;
  for (const { dir } of projects) if (path.startsWith(`${dir}/`) && (!best || dir.length > best.length)) best = dir;
  return best;
}

/**
 * A question asked again from each other project that uses the symbol, for
 * a server that answers it from the target's project alone (tsserver's
 * implementations and call hierarchy; its references do span projects):
 * the symbol's references name the projects that use it, and the question
 * is asked at the first reference inside each of them where it can be
 * asked (`ask` answers undefined where it cannot: tsserver prepares no call
 * hierarchy at an import). The answers of every project, the target's
 * first, are returned.
 */
export async function fromEachProject<T>(
  session: Session,
  ctx: HandlerContext,
  deadline: Deadline,
  at: At,
  ask: (at: At) => Promise<T[] | undefined>,
): Promise<T[]> {
  const first = (await ask(at)) ?? [];
  const projects = known.get(session)?.projects ?? [];
  if (session.client.spec.crossProject !== 'references-only' || projects.length < 2) return first;
  const refs =
    (await session.client.request(
      Requests.references,
      { textDocument: { uri: at.uri }, position: at.position, context: { includeDeclaration: false } },
      deadline.options(ctx),
    )) ?? [];
  const asked = new Set([projectOf(uriToPath(at.uri) ?? '', projects)]);
  const answers = [first];
  for (const ref of refs) {
    const path = uriToPath(ref.uri);
    const project = path ? projectOf(path, projects) : undefined;
    if (!path || !project || asked.has(project)) continue;
    await session.docs.sync(path);
    const answer = await ask({ uri: pathToUri(path), position: ref.range.start });
    if (!answer) continue;
    asked.add(project);
    answers.push(answer);
  }
  return answers.flat();
}
