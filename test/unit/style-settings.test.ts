import { expect, test } from 'bun:test';
import { mergeSettings, sameStyle, styleSections } from '../../src/lsp/style-settings';

const tabs = { tabSize: 4, insertSpaces: false };
const format = { tabSize: 4, indentSize: 4, convertTabsToSpaces: false };

test('typescript-language-server reads formattingOptions and the languages format sections', () => {
  expect(styleSections('tsserver', tabs)).toEqual({
    typescript: { format },
    javascript: { format },
    formattingOptions: { tabSize: 4, insertSpaces: false },
  });
});

test('TypeScript 7 reads format under js/ts as well', () => {
  expect(styleSections('typescript-native', { tabSize: 2, insertSpaces: true })).toEqual({
    typescript: { format: { tabSize: 2, indentSize: 2, convertTabsToSpaces: true } },
    javascript: { format: { tabSize: 2, indentSize: 2, convertTabsToSpaces: true } },
    'js/ts': { format: { tabSize: 2, indentSize: 2, convertTabsToSpaces: true } },
  });
});

test("the server's own settings keep what the style does not say", () => {
  const own = { typescript: { preferences: { useAliasesForRenames: false } }, other: 1 };
  expect(mergeSettings(own, styleSections('typescript-native', tabs))).toEqual({
    typescript: { preferences: { useAliasesForRenames: false }, format },
    javascript: { format },
    'js/ts': { format },
    other: 1,
  });
  expect(own).toEqual({ typescript: { preferences: { useAliasesForRenames: false } }, other: 1 });
});

test('sameStyle', () => {
  expect(sameStyle(undefined, tabs)).toBe(false);
  expect(sameStyle({ ...tabs }, tabs)).toBe(true);
  expect(sameStyle({ tabSize: 4, insertSpaces: true }, tabs)).toBe(false);
});
