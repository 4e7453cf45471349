// wiki#index (/wiki, the active Group): search over titles and full text with
// the server's highlighted snippets, categories with counts as filters, the
// recently changed and viewed pages, the pages open in this tab, new page.

import { Button, Flex, Heading, Loader, SearchField, Text, View } from '@aws-amplify/ui-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { useShortcuts } from '../../../components/records/useShortcuts';
import { useActiveDb } from '../../../lib/active-db';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { authorName, categoriesList, exportPdfUrl, exportZipUrl, recentPages, SCOPE, searchPages } from '../api/wiki';
import { HighlightCss } from '../components/HighlightCss';
import { OpenEntries } from '../components/OpenEntries';
import '../components/wiki.css';
import { useLatestSearchParams } from '../../../lib/search-params';

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const h = setTimeout(() => setV(value), ms);
    return () => clearTimeout(h);
  }, [value, ms]);
  return v;
}

export function Component() {
  const { t, i18n } = useTranslation();
  const db = useActiveDb() ?? '';
  const navigate = useNavigate();
  const [params, setParams] = useLatestSearchParams();
  const q = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const [typed, setTyped] = useState(q);
  const debounced = useDebounced(typed, 300);
  const newTo = paths.create(db, 'handbooks');
  useShortcuts({ n: () => navigate(newTo) });

  useEffect(() => {
    if (debounced === q) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (debounced) next.set('q', debounced);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }, [debounced, q, setParams]);

  const setCategory = (c: string) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (c && c !== category) next.set('category', c);
      else next.delete('category');
      return next;
    });

  const searching = q.trim() !== '' || category !== '';
  const results = useQuery({
    queryKey: [SCOPE, db, 'search', q, category],
    queryFn: () => searchPages(db, q.trim(), category),
    enabled: !!db && searching,
    placeholderData: keepPreviousData,
  });
  const recent = useQuery({ queryKey: [SCOPE, db, 'recent'], queryFn: () => recentPages(db, 10), enabled: !!db });
  const cats = useQuery({ queryKey: [SCOPE, db, 'categories'], queryFn: () => categoriesList(db), enabled: !!db });
  const lang = i18n.language;

  return (
    <Page
      title={t('nav.wiki')}
      actions={
        <>
          <Button as={Link} to={paths.index(db, 'handbooks')} size="small">
            {t('wiki.allPages')}
          </Button>
          <Button as={Link} to={newTo} variation="primary" size="small" data-testid="wiki-new" aria-keyshortcuts="n">
            {t('wiki.newPage')}
          </Button>
        </>
      }
    >
      <HighlightCss db={db} />
      <OpenEntries db={db} />
      <div className="wiki-home">
        <View className="wiki-home__main">
          <form role="search" onSubmit={(e) => e.preventDefault()}>
            <SearchField
              label={t('wiki.search.label')}
              placeholder={t('wiki.search.placeholder')}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              onClear={() => setTyped('')}
              data-testid="wiki-search"
            />
          </form>
          {category ? (
            <Flex gap="small" alignItems="center" marginTop="small">
              <Text>{t('wiki.search.inCategory', { category })}</Text>
              <Button size="small" variation="link" onClick={() => setCategory('')}>
                {t('wiki.search.clearCategory')}
              </Button>
              <Button as="a" size="small" href={exportZipUrl(db, { category })} download data-testid="wiki-category-export">
                {t('wiki.search.exportCategory')}
              </Button>
              <Button as="a" size="small" href={exportPdfUrl(db, { category })} download data-testid="wiki-category-export-pdf">
                {t('wiki.search.exportCategoryPdf')}
              </Button>
            </Flex>
          ) : null}
          {searching ? (
            <View as="section" marginTop="medium" aria-live="polite" aria-busy={results.isFetching}>
              <ErrorAlert error={results.error ? asApiError(results.error) : null} />
              {results.isPending && !results.data ? <Loader variation="linear" /> : null}
              {results.data ? (
                results.data.rows.length === 0 ? (
                  <EmptyState icon="wiki" title={t('wiki.search.none')} message={t('wiki.search.noneHelp')} testId="wiki-results-empty" />
                ) : (
                  <>
                    <Text fontSize="small" color="font.secondary">
                      {t('wiki.search.total', { count: results.data.total })}
                    </Text>
                    <ol className="wiki-results" data-testid="wiki-results">
                      {results.data.rows.map((r) => (
                        <li key={r.id} data-testid={`wiki-result-${r.id}`}>
                          {/* title_html and snippet are escaped by the server, only <mark> added */}
                          <Link to={paths.show(db, 'handbooks', r.id)} className="wiki-results__title" dangerouslySetInnerHTML={{ __html: r.title_html || escapeHtml(r.title) }} />
                          {r.snippet ? <p className="wiki-results__snippet" dangerouslySetInnerHTML={{ __html: r.snippet }} /> : null}
                          <Text fontSize="small" color="font.tertiary">
                            {[...(r.categories ?? []), r.updated_at ? formatDateTime(r.updated_at, lang) : ''].filter(Boolean).join(' · ')}
                          </Text>
                        </li>
                      ))}
                    </ol>
                  </>
                )
              ) : null}
            </View>
          ) : (
            <Recents db={db} lang={lang} query={recent} />
          )}
        </View>
        <View as="aside" className="wiki-home__side" aria-labelledby="wiki-cats">
          <Heading level={3} id="wiki-cats">
            {t('wiki.categories.title')}
          </Heading>
          <ErrorAlert error={cats.error ? asApiError(cats.error) : null} />
          {cats.isPending && db ? <Loader variation="linear" /> : null}
          {cats.data && cats.data.rows.length === 0 ? <Text color="font.secondary">{t('wiki.categories.none')}</Text> : null}
          <ul className="wiki-cats" data-testid="wiki-categories">
            {cats.data?.rows.map((c) => (
              <li key={c.category}>
                <button type="button" className="wiki-chip" aria-pressed={c.category === category} onClick={() => setCategory(c.category)}>
                  {c.category} <span className="wiki-chip__count">{c.count}</span>
                </button>
              </li>
            ))}
          </ul>
        </View>
      </div>
    </Page>
  );
}

function Recents({ db, lang, query }: { db: string; lang: string; query: ReturnType<typeof useQuery<Awaited<ReturnType<typeof recentPages>>>> }) {
  const { t } = useTranslation();
  if (query.error) return <ErrorAlert error={asApiError(query.error)} />;
  if (query.isPending) return <Loader variation="linear" marginTop="medium" />;
  const { changed, viewed } = query.data;
  if (changed.length === 0 && viewed.length === 0) {
    return (
      <EmptyState
        icon="wiki"
        title={t('wiki.empty.title')}
        message={t('wiki.empty.message')}
        action={
          <Button as={Link} to={paths.create(db, 'handbooks')} variation="primary">
            {t('wiki.newPage')}
          </Button>
        }
        testId="wiki-empty"
      />
    );
  }
  return (
    <div className="wiki-recents">
      <section aria-labelledby="wiki-changed" data-testid="wiki-recent-changed">
        <Heading level={3} id="wiki-changed">
          {t('wiki.recent.changed')}
        </Heading>
        {changed.length === 0 ? <Text color="font.secondary">{t('wiki.recent.none')}</Text> : null}
        <ul>
          {changed.map((p) => (
            <li key={p.id}>
              <Link to={paths.show(db, 'handbooks', p.id)}>{p.title}</Link>{' '}
              <Text as="span" fontSize="small" color="font.tertiary">
                {[p.updated_at ? formatDateTime(p.updated_at, lang) : '', authorName(p.updated_by)].filter(Boolean).join(' · ')}
              </Text>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="wiki-viewed" data-testid="wiki-recent-viewed">
        <Heading level={3} id="wiki-viewed">
          {t('wiki.recent.viewed')}
        </Heading>
        {viewed.length === 0 ? <Text color="font.secondary">{t('wiki.recent.none')}</Text> : null}
        <ul>
          {viewed.map((p) => (
            <li key={p.id}>
              <Link to={paths.show(db, 'handbooks', p.id)}>{p.title}</Link>{' '}
              <Text as="span" fontSize="small" color="font.tertiary">
                {p.at ? formatDateTime(p.at, lang) : ''}
              </Text>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
