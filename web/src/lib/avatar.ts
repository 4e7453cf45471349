// Avatars (SPEC §2 Profile): the avatar service keyed by the MD5 of the
// e-mail, with d=404 so a missing picture falls back to local initials.

import { md5 } from './md5';

export const AVATAR_SERVICE = 'https://www.gravatar.com/avatar/';

export function emailHash(email: string): string {
  return md5(email.trim().toLowerCase());
}

export function avatarUrl(opts: { email?: string | null; hash?: string | null; size?: number }): string | null {
  const hash = opts.hash || (opts.email ? emailHash(opts.email) : '');
  if (!hash) return null;
  const size = opts.size ?? 80;
  return `${AVATAR_SERVICE}${hash}?s=${size * 2}&d=404`;
}

/** initials: "Ana Maria Souza" → "AS", "ana@x.com" → "A". */
export function initials(name?: string | null, email?: string | null): string {
  const n = (name ?? '').trim();
  if (n) {
    const parts = n.split(/\s+/).filter(Boolean);
    const first = parts[0]?.[0] ?? '';
    const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
    return (first + last).toUpperCase();
  }
  const e = (email ?? '').trim();
  return e ? e[0]!.toUpperCase() : '?';
}
