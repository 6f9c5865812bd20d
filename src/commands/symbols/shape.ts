/** The --json answers of symbols: a file's tree, or the workspace's matches (-w). */
import * as z from 'zod/mini';
import { answered, ContextShape, cut, int, Span, sourced } from '../../answers/shapes';

interface DocumentSymbolJson {
  name: string;
  kind: string;
  detail?: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  children: DocumentSymbolJson[];
}
export const DocumentSymbolShape: z.ZodMiniType<DocumentSymbolJson> = z.object({
  name: z.string(),
  kind: z.string(),
  detail: z.optional(z.string()),
  ...Span,
  get children() {
    return z.array(DocumentSymbolShape);
  },
});

export const SymbolsShape = z.object({
  path: z.string(),
  ...answered,
  symbols: z.array(DocumentSymbolShape),
  ...cut,
});

export const WorkspaceSymbolsShape = z.object({
  query: z.string(),
  ...answered,
  symbols: z.array(
    z.object({
      name: z.string(),
      kind: z.string(),
      container: z.optional(z.string()),
      path: z.string(),
      line: int,
      column: int,
      context: z.optional(ContextShape),
    }),
  ),
  ...cut,
  /** Matches in dependencies and the standard library left out (--deps lists them, after the project's). */
  inDependencies: int,
  ...sourced,
});
