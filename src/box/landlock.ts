// TEMPORARY STUB (the real one comes from the landlock branch)
import type { BoxRules } from './rules';
export function landlockAbi(): number {
  return 0;
}
export function boxArgv(self: string[], rules: BoxRules, argv: string[]): string[] {
  return [...self, '__box', JSON.stringify(rules), '--', ...argv];
}
