/** hover: the server's text as it is (markdown or plain). */
import type { HoverResult } from '../queries';
import { targetJson } from './locations';
import type { HoverShape } from './json-shapes';
import type { Rendered } from './types';
import type * as z from 'zod/mini';

export function hoverJson(r: HoverResult, cwd: string): z.infer<typeof HoverShape> {
  return { target: targetJson(r.target, cwd), server: r.server, root: r.root, contents: r.contents, range: r.range };
}

export function renderHover(r: HoverResult): Rendered {
  return { stdout: r.contents ? `${r.contents}\n` : '' };
}
