/** diag: delivered in its own issue; until then it says so instead of reporting "clean". */
import { LspqError } from '../../errors';
import type { DiagResult, QueryRequest } from '../../protocol/messages';
import type { HandlerContext } from './context';

export async function diag(_req: Extract<QueryRequest, { op: 'diag' }>, _ctx: HandlerContext): Promise<DiagResult> {
  throw new LspqError('unsupported', 'diag is not implemented yet');
}
