import { describe, expect, it } from 'vitest';
import { diffStats, lineDiff, splitLines } from './line-diff';

describe('lineDiff', () => {
  it('keeps equal texts unchanged', () => {
    expect(lineDiff('a\nb', 'a\nb')).toEqual([
      { op: 'same', text: 'a' },
      { op: 'same', text: 'b' },
    ]);
  });
  it('marks added, removed and changed lines in order', () => {
    const d = lineDiff('a\nb\nc\nd', 'a\nB\nc\nd\ne');
    expect(d).toEqual([
      { op: 'same', text: 'a' },
      { op: 'del', text: 'b' },
      { op: 'add', text: 'B' },
      { op: 'same', text: 'c' },
      { op: 'same', text: 'd' },
      { op: 'add', text: 'e' },
    ]);
    expect(diffStats(d)).toEqual({ added: 2, removed: 1 });
  });
  it('handles empty sides and CRLF', () => {
    expect(lineDiff('', 'x')).toEqual([{ op: 'add', text: 'x' }]);
    expect(lineDiff('x\r\ny', '')).toEqual([
      { op: 'del', text: 'x' },
      { op: 'del', text: 'y' },
    ]);
    expect(splitLines('a\r\nb')).toEqual(['a', 'b']);
  });
  it('finds the longest common subsequence', () => {
    const d = lineDiff('x\na\nb\nc', 'a\nb\nc\nx');
    expect(diffStats(d)).toEqual({ added: 1, removed: 1 });
    expect(d.filter((l) => l.op === 'same').map((l) => l.text)).toEqual(['a', 'b', 'c']);
  });
});
