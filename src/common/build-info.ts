/**
 * The build's identity. scripts/build.ts defines LSPQ_BUILD_ID at compile
 * time; a command and a daemon from different builds refuse to talk.
 */
declare const LSPQ_BUILD_ID: string | undefined;

export const BUILD = {
  version: '0.1.0',
  id: typeof LSPQ_BUILD_ID === 'string' ? LSPQ_BUILD_ID : 'dev',
};
