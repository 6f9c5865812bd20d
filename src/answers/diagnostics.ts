/** Diagnostics as lspq reports them, and what --verify found. */
import type { Context, Span } from './places';

/** Worst first: a threshold takes its own severity and those before it. */
export const SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Diagnostic extends Span {
  path: string;
  severity: Severity;
  message: string;
  source?: string;
  code?: string | number;
  context?: Context;
  /** With --since: not present at that revision. */
  new?: boolean;
}
