/** hover: the server's text (markdown or plain), its documentation cleaned for reading (render/markdown.ts). */
import { sourcedJson, staleNote, targetJson } from '../../render/place-json';
import { cleanMarkdown } from '../../render/markdown';
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
    contents: cleanMarkdown(r.contents),
    range: r.range,
    ...sourcedJson(r, cwd),
  };
}

export function renderHover(r: HoverResult, o: RenderOptions): Rendered {
  const note = staleNote(r, o.cwd);
  const contents = cleanMarkdown(r.contents);
  return { stdout: contents ? `${contents}\n` : '', ...(note ? { warning: note } : {}) };
}
