/** An environment's variables that are set: process.env's type allows undefined values, which a child or a JSON line cannot carry. */
export function setVariables(env: Record<string, string | undefined> = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}
