/** lspq index's answer: the index's path, and what built it. Pure. */
import { displayPath } from '../../common/paths';
import type { IndexResult } from './question';
import type { IndexShape } from './shape';
import type { RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';
import type * as z from 'zod/mini';

export const indexJson = (r: IndexResult): z.infer<typeof IndexShape> => r;

export function renderIndex(r: IndexResult, o: RenderOptions): Rendered {
  // Said either way: without its table, the first question reads the whole index (seconds on a large one).
  const table = r.table
    ? `; its table made for the questions (${(r.table.ms / 1000).toFixed(1)} s)`
    : '; its table could not be made: the first question reads the whole index';
  if (r.url)
    return {
      stdout: `${displayPath(r.file, o.cwd)}\n`,
      stderr: `fetched the index of ${r.commit?.slice(0, 12)} from ${r.url}: ${r.documents} files, ${Math.max(1, Math.round(r.bytes / 1024))} KB${table}`,
    };
  const by = r.indexers.map((d) => `${d.name} ${(d.ms / 1000).toFixed(1)} s`).join(', ');
  return {
    stdout: `${displayPath(r.file, o.cwd)}\n`,
    stderr: `indexed ${r.documents} files (${by}), ${Math.max(1, Math.round(r.bytes / 1024))} KB${table}`,
  };
}
