import { describe, expect, it } from 'vitest';
import { bookmarkSelector, isWebUrl, tagsOf } from './api/bookmarks';

describe('links', () => {
  it('builds the _find selector from the filters', () => {
    expect(bookmarkSelector('', '', false)).toEqual({ klass: 'Bookmark' });
    expect(bookmarkSelector(' a.b ', 'dev', true)).toEqual({
      klass: 'Bookmark',
      $or: [{ title: { $regex: '(?i)a\\.b' } }, { url: { $regex: '(?i)a\\.b' } }, { description: { $regex: '(?i)a\\.b' } }],
      tags: { $elemMatch: { $eq: 'dev' } },
      starred: true,
    });
  });
  it('reads tags and checks addresses', () => {
    expect(tagsOf(' a, b,, a ,c ')).toEqual(['a', 'b', 'c']);
    expect(isWebUrl('https://example.com/x')).toBe(true);
    expect(isWebUrl('ftp://example.com')).toBe(false);
    expect(isWebUrl('example.com')).toBe(false);
  });
});
