/** The code action kinds of the protocol lspq knows: what it tells servers it takes, and what actions --kind completes. */
export const ACTION_KINDS = [
  'quickfix',
  'refactor',
  'refactor.extract',
  'refactor.inline',
  'refactor.rewrite',
  'source',
  'source.organizeImports',
  'source.fixAll',
] as const;
