/** Whether a value read from outside (JSON, a server's options) is an object whose fields can be read by name. */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
