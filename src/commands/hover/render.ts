/** hover: the server's text as it is (markdown or plain). */
import { sourcedJson, staleNote, targetJson } from '../../render/place-json';
import type { RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';
import type { HoverResult } from './question';
import type { HoverShape } from './shape';
import type * as z from 'zod/mini';

export function hoverJson(r: HoverResult, cwd: string): z.infer<typeof HoverShape> {
  return {
    target: targetJson(r.target, cwd),
    server: r.server,
    root: r.root,
    contents: r.contents,
    range: r.range,
    ...sourcedJson(r, cwd),
  };
}

export function renderHover(r: HoverResult, o: RenderOptions): Rendered {
  const note = staleNote(r, o.cwd);
  return { stdout: r.contents ? `${r.contents}\n` : '', ...(note ? { warning: note } : {}) };
}
