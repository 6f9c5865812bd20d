/** Why a value does not fit its zod shape, in one line: zod/mini carries no message texts, so the issue's code and what was expected say it. */
import type * as z from 'zod/mini';

export function issueText(issue: z.core.$ZodIssue | undefined, shapes = 'the shapes allowed'): string {
  if (!issue) return 'wrong shape';
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  if (issue.code === 'invalid_union') return `none of ${shapes}`;
  if (issue.code === 'invalid_value') return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return issue.code.replaceAll('_', ' ');
}

/** The first issue with where it is (`whole` when at the top); `shapes` names what a union allows. */
export function firstIssue(error: z.core.$ZodError, whole: string, shapes?: string): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : whole;
  return `${where}: ${issueText(issue, shapes)}`;
}
