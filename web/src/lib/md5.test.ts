import { describe, expect, it } from 'vitest';
import { avatarUrl, initials } from './avatar';
import { md5 } from './md5';

describe('md5', () => {
  it.each([
    ['', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['abc', '900150983cd24fb0d6963f7d28e17f72'],
    ['The quick brown fox jumps over the lazy dog', '9e107d9d372bb6826bd81d3542a419d6'],
    ['12345678901234567890123456789012345678901234567890123456789012345678901234567890', '57edf4a22be3c955ac49da2e2107b67a'],
    ['é', '66ddcd97cfdeabb2f6fb8a999b4bc76f'],
  ])('md5(%j)', (input, hex) => {
    expect(md5(input)).toBe(hex);
  });
});

describe('avatar', () => {
  it('keys the avatar service by the md5 of the trimmed lowercased email, with d=404', () => {
    expect(avatarUrl({ email: ' MyEmailAddress@example.com ', size: 80 })).toBe(
      'https://www.gravatar.com/avatar/0bc83cb571cd1c50ba6f3e8a78ef1346?s=160&d=404',
    );
    expect(avatarUrl({ hash: 'abc', size: 200 })).toContain('abc?s=400&d=404');
    expect(avatarUrl({})).toBeNull();
  });
  it('makes initials for the local fallback', () => {
    expect(initials('Ana Maria Souza')).toBe('AS');
    expect(initials('ana')).toBe('A');
    expect(initials('', 'zed@example.com')).toBe('Z');
    expect(initials(null, null)).toBe('?');
  });
});
