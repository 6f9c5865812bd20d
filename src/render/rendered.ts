/** What a renderer hands back: text for stdout, a summary line for stderr, a note, and the line that says the answer was cut. */
export interface Rendered {
  stdout: string;
  stderr?: string;
  warning?: string;
  /** The answer was cut (`200 of 263 shown: --limit 0 for all`): stdout's last line, and a warning too. */
  cut?: string;
}
