// UserAvatar (SPEC §2 Profile): the avatar service picture by e-mail hash,
// falling back to local initials when there is none or the network fails.

import { useState } from 'react';
import { avatarUrl, initials } from '../lib/avatar';

export function UserAvatar({
  email,
  hash,
  name,
  size = 80,
}: {
  email?: string | null;
  hash?: string | null;
  name?: string | null;
  size?: number;
}) {
  const url = avatarUrl({ email: email ?? null, hash: hash ?? null, size });
  const [failed, setFailed] = useState<string | null>(null);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  const alt = name || email || '';
  if (!url || failed === url || (typeof navigator !== 'undefined' && navigator.onLine === false)) {
    return (
      <span className="avatar avatar--initials" style={style} role="img" aria-label={alt} data-testid="avatar-initials">
        {initials(name, email)}
      </span>
    );
  }
  return (
    <img
      className="avatar"
      src={url}
      width={size}
      height={size}
      style={style}
      alt={alt}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(url)}
      data-testid="avatar-image"
    />
  );
}
