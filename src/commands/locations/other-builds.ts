/**
 * A workspace-wide answer from gopls, completed with Go's other build
 * configurations: where files this build leaves out write the name, the
 * question is asked again of a gopls for a configuration that compiles
 * them, and the places merged; files none compiles are named unsearched.
 */
import { sortLocations } from '../../answers/places';
import type { CallerContext } from '../../answers/caller';
import { findWord } from '../../common/target';
import type { HandlerContext } from '../../engine/context';
import { buildLabel, envFor, otherBuilds, writingLeftOut } from '../../engine/go-builds';
import type { IndexAnswers } from '../../scip/index-answers';
import type { DiskView } from '../../lsp/file-events';
import { dropOldest } from '../../common/bounded-cache';
import { projectFiles } from '../../lsp/project-files';
import { BUILTIN_SERVERS, languageIdFor } from '../../lsp/servers/registry';
import type { LocationsHandler, LocationsQuery, LocationsResult } from './question';
import { messageOf } from '../../common/errors';
import { readWorkspaceText } from '../../common/file-size';

const MAX_WALK = 20_000;

/** The name a target points at: its symbol's, else the word at its place on disk. */
export function nameAt(path: string, line: number, column: number, symbol?: string): string | undefined {
  if (symbol) return symbol.split('.').pop();
  const text = readWorkspaceText(path, 'source');
  if (text === undefined) return undefined;
  const lineText = text.split('\n')[line - 1] ?? '';
  const m = /^[\p{L}\p{N}_]+/u.exec([...lineText].slice(column - 1).join(''));
  return m && findWord(lineText, m[0]).length > 0 ? m[0] : undefined;
}

type LeftOutAnswer = Pick<LocationsResult, 'unsearched' | 'unsearchedBecause'>;

/** Answers by index and name, with the watch's mark they were found at; at most LEFT_OUT_KEPT names an index. */
const leftOutKnown = new WeakMap<IndexAnswers, Map<string, { mark: number; answer: LeftOutAnswer | undefined }>>();
const LEFT_OUT_KEPT = 256;

/**
 * What an answer of the index alone leaves unsearched: the files its build
 * left out that write `name`, as its table knows them (made with the index,
 * so a first question reads no tree); undefined where it does not know.
 * Found again only when something under the root changed since (the
 * daemon's watch says): a warm question looks at none of those files.
 */
export function leftOutByIndex(index: IndexAnswers, name: string, disk?: DiskView): LeftOutAnswer | undefined {
  const mark = disk?.markNow();
  const since = disk?.watchedSince(index.root);
  const byName = leftOutKnown.get(index) ?? new Map<string, { mark: number; answer: LeftOutAnswer | undefined }>();
  leftOutKnown.set(index, byName);
  const known = byName.get(name);
  if (
    disk &&
    known &&
    since !== undefined &&
    since <= known.mark &&
    disk.changesSince(index.root, known.mark)?.length === 0
  )
    return known.answer;
  const found = index.leftOut(name);
  const files = found ? [...found.writing, ...writingLeftOut(found.changed, name)].sort() : undefined;
  const answer: LeftOutAnswer | undefined = !files
    ? undefined
    : files.length === 0
      ? { unsearched: [] }
      : {
          unsearched: files,
          unsearchedBecause:
            "the index's build leaves them out; drop --index-only to ask gopls under a build that compiles each",
        };
  if (mark !== undefined) {
    if (byName.size >= LEFT_OUT_KEPT) dropOldest(byName);
    byName.set(name, { mark, answer });
  }
  return answer;
}

export async function withOtherBuilds(
  first: LocationsResult,
  req: LocationsQuery & CallerContext,
  ctx: HandlerContext,
  once: LocationsHandler,
): Promise<LocationsResult> {
  // The server of the target's file that answers for one build configuration; an index's answer is one
  // build's too (scip-go indexes this platform's), so it is completed the same way, by the live server.
  const spec = BUILTIN_SERVERS.find(
    (s) => s.buildConfigurations === 'go' && languageIdFor(s, first.target.path) !== undefined,
  );
  if (!spec || (first.source === 'server' && first.server !== spec.id)) return first;
  // Only the index may answer (--index-only): no server starts, so another build's files are named unsearched.
  const indexOnly = first.source === 'index' && req.index?.mode === 'only';
  // The index named those itself, from its table.
  if (indexOnly && first.unsearched !== undefined) return first;
  const name = nameAt(first.target.path, first.target.line, first.target.column, first.target.symbol);
  if (!name) return first;
  const walk = () => projectFiles(spec, first.root, MAX_WALK);
  const others = await otherBuilds(first.root, name, req.env, walk, ctx.disk);
  if (others.builds.length === 0 && others.unsearched.length === 0) return first;
  const unsearched = [...others.unsearched];
  let locations = [...first.locations];
  let truncated = first.truncated;
  const builds: string[] = [];
  for (const { build, files } of others.builds) {
    if (indexOnly) {
      unsearched.push(...files);
      continue;
    }
    try {
      // The same question of a gopls for that configuration (its environment keys its own server), an extra:
      // it never costs another project its warm servers (manager.ts).
      const again = await once(
        { ...req, env: envFor(req.env, build), index: { mode: 'off' } },
        { ...ctx, extraServers: true },
      );
      locations = [...locations, ...again.locations];
      truncated ||= again.truncated;
      builds.push(buildLabel(build));
    } catch (err) {
      ctx.log(`${first.server} under ${buildLabel(build)}: ${messageOf(err)}`);
      unsearched.push(...files);
    }
  }
  const all = sortLocations(locations);
  return {
    ...first,
    locations: all.slice(0, req.limit),
    total: truncated ? Math.max(first.total, all.length) : all.length,
    truncated: truncated || all.length > req.limit,
    builds,
    ...(unsearched.length ? { unsearched: unsearched.sort() } : {}),
  };
}
