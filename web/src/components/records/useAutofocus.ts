// Autofocus for record forms (SPEC §9): retried every 100 ms until the form
// has stopped loading and its first field could take the focus.

import { useEffect, type RefObject } from 'react';

export const AUTOFOCUS_RETRY_MS = 100;
const MAX_TRIES = 100;

const SELECTOR = '[data-autofocus], input:not([type=hidden]):not([disabled]), textarea:not([disabled]), select:not([disabled])';

export function useAutofocus(container: RefObject<HTMLElement | null>, loading: boolean): void {
  useEffect(() => {
    let tries = 0;
    const attempt = (): boolean => {
      if (loading) return false;
      const root = container.current;
      const el = root?.querySelector<HTMLElement>(SELECTOR);
      if (!el) return false;
      el.focus();
      return document.activeElement === el;
    };
    if (attempt()) return;
    const timer = window.setInterval(() => {
      tries++;
      if (attempt() || tries >= MAX_TRIES) window.clearInterval(timer);
    }, AUTOFOCUS_RETRY_MS);
    return () => window.clearInterval(timer);
  }, [container, loading]);
}
