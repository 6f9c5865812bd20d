/** Request lines as they arrive (from a socket, or stdin), for runBatch to take in order. */
export class LineQueue implements AsyncIterable<string> {
  private readonly lines: string[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  push(line: string): void {
    this.lines.push(line);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) yield line;
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
