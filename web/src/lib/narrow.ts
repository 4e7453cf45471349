// useNarrowScreen: true on a phone-sized window (≤ 40rem, the width the
// stylesheets switch layouts at), following resizes and rotations. Screens
// render one layout or the other, not both hidden by CSS.

import { useSyncExternalStore } from 'react';

const QUERY = '(max-width: 40rem)';

function subscribe(onChange: () => void): () => void {
  if (typeof window === 'undefined' || !window.matchMedia) return () => {};
  const mq = window.matchMedia(QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

function narrowNow(): boolean {
  return typeof window !== 'undefined' && !!window.matchMedia && window.matchMedia(QUERY).matches;
}

export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, narrowNow, () => false);
}
