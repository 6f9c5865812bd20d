/** hover: the server's text as it is (markdown or plain). */
import type { HoverResult } from '../queries';
import { targetJson } from './locations';
import type { Rendered } from './types';

export function hoverJson(r: HoverResult, cwd: string): object {
  return { target: targetJson(r.target, cwd), server: r.server, root: r.root, contents: r.contents, range: r.range };
}

export function renderHover(r: HoverResult): Rendered {
  return { stdout: r.contents ? `${r.contents}\n` : '' };
}
