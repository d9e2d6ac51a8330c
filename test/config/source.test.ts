// Only the parts of source.ts this work changed: PyYAML scalar rules and positions through
// aliases and duplicate keys.
import { describe, expect, it } from 'vitest';
import { parseConfigText, positionOf } from '../../src/config/source.js';

describe('parseConfigText reads scalars like PyYAML (YAML 1.1)', () => {
  it.each([
    ['yes', true],
    ['On', true],
    ['OFF', false],
    ['no', false],
    ['y', 'y'],
    ['n', 'n'],
    ['Y', 'Y'],
    ['.', '.'],
    ['1e3', '1e3'],
    ['1.0e+3', 1000],
    ['1.5', 1.5],
    ['.5', 0.5],
    ['1_000', 1000],
    ['010', 8],
    ['0x1f', 31],
    ['1:30', 90],
    ['"yes"', 'yes'],
  ])('%s → %j', (text, value) => {
    const s = parseConfigText(`v: ${text}`, 'c.yaml');
    expect(s.syntaxError).toBeNull();
    expect((s.data as { v: unknown }).v).toEqual(value);
  });
});

describe('positionOf', () => {
  it('points at the last of duplicate keys (the one that wins)', () => {
    const s = parseConfigText('a: 1\nb: 2\na: 3\n', 'c.yaml');
    expect(positionOf(s, ['a'])).toEqual({ line: 3, column: 4 });
    expect(positionOf(s, ['a'], { key: true })).toEqual({ line: 3, column: 1 });
  });

  it('follows an alias into the anchored node, but points at the alias itself when it is the target', () => {
    const s = parseConfigText('base: &b\n  timeout: 5\nuse:\n  - *b\n', 'c.yaml');
    expect(positionOf(s, ['use', 0, 'timeout'])).toEqual({ line: 2, column: 12 });
    expect(positionOf(s, ['use', 0])).toEqual({ line: 4, column: 5 });
  });
});
