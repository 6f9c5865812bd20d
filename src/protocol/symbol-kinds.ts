/** LSP SymbolKind names in lower case, index = kind - 1 (the contract's spelling). */
export const SYMBOL_KINDS: readonly string[] = [
  'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum',
  'interface', 'function', 'variable', 'constant', 'string', 'number', 'boolean', 'array', 'object', 'key',
  'null', 'enummember', 'struct', 'event', 'operator', 'typeparameter',
];
