// Loads the server's chroma stylesheet for the wk- classes of rendered pages,
// in the style of the theme (github, github-dark), one <link> at a time.

import { useEffect } from 'react';
import { useThemeMode } from '../../../lib/theme';
import { highlightCssUrl } from '../api/wiki';

export function HighlightCss({ db }: { db: string }) {
  const { mode } = useThemeMode();
  useEffect(() => {
    if (!db) return;
    const href = highlightCssUrl(db, mode === 'dark' ? 'github-dark' : 'github');
    let link = document.head.querySelector<HTMLLinkElement>('link[data-wiki-css]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'stylesheet';
      link.dataset.wikiCss = '1';
      document.head.appendChild(link);
    }
    if (link.getAttribute('href') !== href) link.setAttribute('href', href);
  }, [db, mode]);
  return null;
}
