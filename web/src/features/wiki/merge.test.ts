import { describe, expect, it } from 'vitest';
import { mergeSeed } from './merge';

describe('mergeSeed', () => {
  it('takes the only side that changed', () => {
    expect(mergeSeed('a', 'a', 'b')).toBe('b');
    expect(mergeSeed('a', 'c', 'a')).toBe('c');
    expect(mergeSeed(null, 'x', 'x')).toBe('x');
  });
  it('marks both when both changed or the ancestor is unknown', () => {
    expect(mergeSeed('a', 'b', 'c')).toBe('<<<<<<< theirs\nb\n=======\nc\n>>>>>>> mine\n');
    expect(mergeSeed(null, 'b', 'c')).toContain('=======');
  });
});
