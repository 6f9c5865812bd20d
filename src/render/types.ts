/** What a renderer hands back: text for stdout and an optional note for stderr. */
export interface Rendered {
  stdout: string;
  stderr?: string;
}
