/** Where a path really is: a link's target, each link on the way followed; the path itself where it cannot be resolved. */
import { realpathSync } from 'node:fs';

export function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
