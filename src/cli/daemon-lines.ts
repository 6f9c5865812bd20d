/** The daemon's lines as the command reads them, checked before use. */
import type { CommandOutput } from '../common/errors';
import type { AnswerLine, EditOutcome, ProgressLine, Reply } from '../common/messages';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

const isOutput = (v: unknown): v is CommandOutput =>
  isRecord(v) &&
  typeof v.stdout === 'string' &&
  typeof v.exit === 'number' &&
  (v.stderr === undefined || typeof v.stderr === 'string') &&
  (v.text === undefined || typeof v.text === 'string') &&
  (v.warnings === undefined || (Array.isArray(v.warnings) && v.warnings.every((w) => typeof w === 'string')));

const isOutcome = (v: unknown): v is EditOutcome =>
  isRecord(v) &&
  typeof v.written === 'boolean' &&
  typeof v.summary === 'string' &&
  (v.left === undefined || (Array.isArray(v.left) && v.left.every((p) => typeof p === 'string'))) &&
  (v.output === undefined || isOutput(v.output));

/** A reply's fields checked as far as the command reads them (a status's servers are listed, not read here). */
function isReply(v: Record<string, unknown>): v is Reply {
  if (v.ok === false)
    return (
      (isRecord(v.error) && typeof v.error.code === 'string' && typeof v.error.message === 'string') ||
      isRecord(v.mismatch)
    );
  if (v.ok !== true) return false;
  if ('output' in v) return isOutput(v.output);
  if ('outcome' in v) return v.outcome === null || isOutcome(v.outcome);
  if ('status' in v) return isRecord(v.status) && Array.isArray(v.status.servers);
  return typeof v.pid === 'number' && typeof v.build === 'string';
}

/**
 * A line from the daemon, checked before it is used. A hand-written guard
 * rather than the daemon's zod schemas: loading zod would cost every warm
 * question about 1.5 ms, and these few shapes are all this side reads.
 */
export function daemonLine(text: string): Reply | ProgressLine | AnswerLine | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(v)) return undefined;
  if (typeof v.progress === 'string') return { progress: v.progress };
  if (typeof v.answer === 'string') return { answer: v.answer };
  return isReply(v) ? v : undefined;
}
