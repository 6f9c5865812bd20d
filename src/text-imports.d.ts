/** A Markdown file imported `with { type: 'text' }`: its text, inlined when the binary is built. */
declare module '*.md' {
  const text: string;
  export default text;
}
