import { describe, expect, it } from 'vitest';
import { hasControlChars, inert } from '../src/display.js';

describe('inert: text a person reads shows control characters as escapes', () => {
  it.each([
    ['plain /p/h.sh --flag', 'plain /p/h.sh --flag'],
    ['h\\$.sh and a \\ backslash', 'h\\$.sh and a \\ backslash'],
    ['café ✓ 日本', 'café ✓ 日本'],
    ['\u001b[2K\rCommand: x', '\\e[2K\\rCommand: x'],
    ['a\nb\tc', 'a\\nb\\tc'],
    ['nul\u0000 bel\u0007 del\u007f', 'nul\\x00 bel\\x07 del\\x7f'],
    ['c1 csi\u009b31m nel\u0085', 'c1 csi\\x9b31m nel\\x85'],
    ['rlo\u202eexe.sh lri\u2066x\u2069 lrm\u200e alm\u061c', 'rlo\\u202eexe.sh lri\\u2066x\\u2069 lrm\\u200e alm\\u061c'],
    ['ls\u2028ps\u2029', 'ls\\u2028ps\\u2029'],
  ])('%j → %j', (text, shown) => {
    expect(inert(text)).toBe(shown);
    expect(hasControlChars(text)).toBe(text !== shown);
  });

  it('keepNewlines keeps line breaks (multi-line output) and escapes everything else', () => {
    expect(inert('line 1\nline 2\r\n\u001b[31mred', { keepNewlines: true })).toBe('line 1\nline 2\\r\n\\e[31mred');
  });

  it('hasControlChars gives the same answer on repeated calls (no regex state)', () => {
    expect([hasControlChars('\u001b'), hasControlChars('\u001b'), hasControlChars('ok')]).toEqual([true, true, false]);
  });
});
