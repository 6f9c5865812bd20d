import type { QueryRequest } from '../protocol/messages';

export async function askDaemon(request: QueryRequest): Promise<unknown> {
  const { answerHere } = await import('../daemon/in-process');
  return answerHere(request);
}
