/** What a renderer hands back: text for stdout, a summary line for stderr, and a note when the answer was cut. */
export interface Rendered {
  stdout: string;
  stderr?: string;
  warning?: string;
}
