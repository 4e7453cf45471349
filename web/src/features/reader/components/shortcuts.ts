// The feed list's keyboard shortcuts (Miniflux and FreshRSS users know
// them): j/k next/previous, o open, m toggle read, s toggle star, v open
// the original, p play or pause the episode, r refresh, ? help. Keys typed into a field, or with a
// modifier, are the browser's.

import { useEffect, useRef } from 'react';

export type ShortcutAction = 'next' | 'previous' | 'open' | 'toggleRead' | 'toggleStar' | 'original' | 'play' | 'refresh' | 'help';

export const SHORTCUTS: ReadonlyArray<{ key: string; action: ShortcutAction }> = [
  { key: 'j', action: 'next' },
  { key: 'k', action: 'previous' },
  { key: 'o', action: 'open' },
  { key: 'm', action: 'toggleRead' },
  { key: 's', action: 'toggleStar' },
  { key: 'v', action: 'original' },
  { key: 'p', action: 'play' },
  { key: 'r', action: 'refresh' },
  { key: '?', action: 'help' },
];

interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  target?: EventTarget | null;
}

/** typing reports a key pressed in a text field, a select or an editable element. */
function typing(target: EventTarget | null | undefined): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== 'string') return false;
  const el = target as HTMLElement;
  const tag = el.tagName.toLowerCase();
  return tag === 'input' || tag === 'textarea' || tag === 'select' || el.isContentEditable;
}

/** shortcutOf maps a key event to its action, or null when it is not one. */
export function shortcutOf(e: KeyLike): ShortcutAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return null;
  return SHORTCUTS.find((s) => s.key === e.key)?.action ?? null;
}

/**
 * useShortcuts calls handle for each shortcut pressed while enabled (not
 * while a dialog is open over the list).
 */
export function useShortcuts(handle: (a: ShortcutAction) => void, enabled = true) {
  const ref = useRef(handle);
  ref.current = handle;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      const a = shortcutOf(e);
      if (!a) return;
      e.preventDefault();
      ref.current(a);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}
