import { describe, expect, it } from 'vitest';
import { addEntry, MAX_OPEN, parseEntries, readEntries, removeEntry, writeEntries } from './open-entries';

describe('open entries', () => {
  it('adds once, retitles in place, removes', () => {
    let l = addEntry([], { id: 'a', title: 'A' });
    l = addEntry(l, { id: 'b', title: 'B' });
    expect(addEntry(l, { id: 'a', title: 'A' })).toBe(l);
    l = addEntry(l, { id: 'a', title: 'A2' });
    expect(l).toEqual([{ id: 'a', title: 'A2' }, { id: 'b', title: 'B' }]);
    expect(removeEntry(l, 'a')).toEqual([{ id: 'b', title: 'B' }]);
  });
  it('keeps at most MAX_OPEN, dropping the oldest', () => {
    let l: ReturnType<typeof parseEntries> = [];
    for (let i = 0; i < MAX_OPEN + 2; i++) l = addEntry(l, { id: `p${i}`, title: `P${i}` });
    expect(l).toHaveLength(MAX_OPEN);
    expect(l[0]!.id).toBe('p2');
  });
  it('parses only well-formed lists', () => {
    expect(parseEntries(null)).toEqual([]);
    expect(parseEntries('nope')).toEqual([]);
    expect(parseEntries('{"id":"a"}')).toEqual([]);
    expect(parseEntries('[{"id":"a","title":"A"},{"id":1},null]')).toEqual([{ id: 'a', title: 'A' }]);
  });
  it('stores per Group in sessionStorage', () => {
    writeEntries('g1', [{ id: 'a', title: 'A' }]);
    expect(readEntries('g1')).toEqual([{ id: 'a', title: 'A' }]);
    expect(readEntries('g2')).toEqual([]);
    writeEntries('g1', []);
    expect(window.sessionStorage.getItem('oficina.wiki.open.g1')).toBeNull();
  });
});
