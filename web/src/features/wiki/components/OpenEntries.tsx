// The tabs of the pages open in this tab (sessionStorage), each with a close button.

import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { useOpenEntries } from '../open-entries';

export function OpenEntries({ db, currentId }: { db: string; currentId?: string }) {
  const { t } = useTranslation();
  const { list, close } = useOpenEntries(db);
  if (list.length === 0) return null;
  return (
    <nav className="wiki-tabs" aria-label={t('wiki.open.title')} data-testid="wiki-open-entries">
      <ul>
        {list.map((e) => (
          <li key={e.id} className={e.id === currentId ? 'wiki-tabs__tab wiki-tabs__tab--current' : 'wiki-tabs__tab'}>
            <Link to={paths.show(db, 'handbooks', e.id)} aria-current={e.id === currentId ? 'page' : undefined} data-testid={`wiki-open-${e.id}`}>
              {e.title}
            </Link>
            <button type="button" className="wiki-tabs__close" onClick={() => close(e.id)} aria-label={t('wiki.open.close', { title: e.title })}>
              ×
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
