/** stdin as lines, as they arrive (a batch's requests): a slow producer's lines are answered before it ends. */
export async function* stdinLines(): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of Bun.stdin.stream()) {
    rest += decoder.decode(chunk, { stream: true });
    for (let end = rest.indexOf('\n'); end >= 0; end = rest.indexOf('\n')) {
      yield rest.slice(0, end).replace(/\r$/, '');
      rest = rest.slice(end + 1);
    }
  }
  rest += decoder.decode();
  if (rest !== '') yield rest;
}
