/** What an index's symbol names say of their container and kind, as a live server's outline names them. */
import { describe, expect, test } from 'bun:test';
import { containerOf, kindOf } from '../../src/engine/from-index';

describe('containerOf', () => {
  test.each([
    ['scip-typescript npm immer 1.0 src/core/`immerClass.ts`/Immer#produce.', 'Immer'],
    ['scip-go gomod github.com/gorilla/mux v1.8.1 `github.com/gorilla/mux`/Router#ServeHTTP().', 'Router'],
    // rust-analyzer: a member of an impl block is named by the block's Self type, without its generics.
    ['rust-analyzer cargo anyhow 1.0.98 chain/impl#[Chain]next().', 'Chain'],
    ['rust-analyzer cargo anyhow 1.0.98 impl#[`Option<T>`][Context]with_context().', 'Option'],
    ["rust-analyzer cargo anyhow 1.0.98 ptr/impl#[`Ref<'a, T>`]by_mut().", 'Ref'],
    ['rust-analyzer cargo anyhow 1.0.98 fmt/impl#[ErrorImpl]debug().', 'ErrorImpl'],
    ['rust-analyzer cargo anyhow 1.0.98 error/object_drop().', undefined],
  ])('%s', (symbol, container) => {
    expect(containerOf(symbol)).toBe(container);
  });
});

describe('kindOf', () => {
  test.each([
    ['rust-analyzer cargo anyhow 1.0.98 chain/impl#[Chain]next().', 'method'],
    ['rust-analyzer cargo anyhow 1.0.98 error/object_drop().', 'function'],
    ['rust-analyzer cargo anyhow 1.0.98 ptr/Mut#', 'class'],
  ])('%s', (symbol, kind) => {
    expect(kindOf(symbol)).toBe(kind);
  });
});
