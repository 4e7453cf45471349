// Loads the server's chroma stylesheet for the wk- classes of rendered pages.

import { useEffect } from 'react';
import { highlightCssUrl } from '../api/wiki';

export function HighlightCss({ db }: { db: string }) {
  useEffect(() => {
    if (!db) return;
    const href = highlightCssUrl(db);
    if (Array.from(document.querySelectorAll<HTMLLinkElement>('link[data-wiki-css]')).some((l) => l.dataset.wikiCss === href)) return;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.dataset.wikiCss = href;
    document.head.appendChild(link);
  }, [db]);
  return null;
}
