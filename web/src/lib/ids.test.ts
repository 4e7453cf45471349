import { describe, expect, it } from 'vitest';
import { ID_PATTERN, newId, prefixOf } from './ids';

describe('newId', () => {
  it('makes "<prefix>-<32 hex>" ids that sort in the order they were made', () => {
    const at = Date.UTC(2026, 10, 29, 1, 2, 3);
    let prev = '';
    for (let i = 0; i < 500; i++) {
      const id = newId('tik', at + i);
      expect(id).toMatch(ID_PATTERN);
      expect(prefixOf(id)).toBe('tik');
      expect(id > prev).toBe(true);
      prev = id;
    }
    expect(newId('cus', at).slice(4, 16)).toBe(at.toString(16).padStart(12, '0'));
  });

  it('makes distinct ids within one millisecond', () => {
    const at = Date.now();
    const seen = new Set(Array.from({ length: 5000 }, () => newId('cus', at)));
    expect(seen.size).toBe(5000);
  });
});
