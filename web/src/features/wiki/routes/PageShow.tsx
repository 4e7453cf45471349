// handbooks#show: the page's server-sanitised HTML, its categories, the pages
// it links to and the pages linking to it, a note when reached by an old
// title, the versions (view, diff, restore), comments, Markdown and PDF
// export and print. A page opened here joins the "open entries" tabs.

import { Badge, Button, Flex, Heading, Text, View } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { PageLoader } from '../../../components/PageLoader';
import { ShowFrame } from '../../../components/records/ShowFrame';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { ID_PATTERN } from '../../../lib/ids';
import { paths } from '../../../lib/paths';
import { authorName, exportPdfUrl, exportZipUrl, oldTitles, renderedPage, resolveTitle, SCOPE } from '../api/wiki';
import { HighlightCss } from '../components/HighlightCss';
import { OpenEntries } from '../components/OpenEntries';
import { VersionsPanel } from '../components/VersionsPanel';
import { useOpenEntries } from '../open-entries';
import '../components/wiki.css';

export function Component() {
  const { account_id: db = '', record_id: param = '' } = useParams();
  const [params] = useSearchParams();
  const byTitle = params.get('title') ?? (ID_PATTERN.test(param) || param.startsWith('han-') ? null : param);
  return byTitle !== null ? <ResolveTitle db={db} title={byTitle} /> : <PageShow db={db} id={param} />;
}

/** ResolveTitle goes to the page of a title (following an old title), or says it is missing. */
function ResolveTitle({ db, title }: { db: string; title: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const q = useQuery({ queryKey: [SCOPE, db, 'resolve', title], queryFn: () => resolveTitle(db, title), retry: false });
  useEffect(() => {
    if (q.data) navigate(paths.show(db, 'handbooks', q.data.id), { replace: true, state: q.data.redirected ? { redirectedFrom: title } : undefined });
  }, [q.data, db, title, navigate]);
  if (q.error) {
    const e = asApiError(q.error);
    return (
      <Page title={title}>
        {e.status === 404 ? (
          <EmptyState
            icon="wiki"
            title={t('wiki.page.missing', { title })}
            action={
              <Button as={Link} to={`${paths.create(db, 'handbooks')}?title=${encodeURIComponent(title)}`} variation="primary">
                {t('wiki.page.create')}
              </Button>
            }
          />
        ) : (
          <ErrorAlert error={e} />
        )}
      </Page>
    );
  }
  return <PageLoader />;
}

function PageShow({ db, id }: { db: string; id: string }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const redirectedFrom = (location.state as { redirectedFrom?: string } | null)?.redirectedFrom;
  const q = useQuery({ queryKey: [SCOPE, db, 'page', id], queryFn: () => renderedPage(db, id) });
  const p = q.data;
  const { open } = useOpenEntries(db);
  useEffect(() => {
    if (p) open({ id: p.id, title: p.title });
  }, [p, open]);
  const lang = i18n.language;
  const doc = p ? { _id: p.id, _rev: p.rev } : undefined;
  return (
    <>
      <HighlightCss db={db} />
      <ShowFrame
        scope={SCOPE}
        itemType="Handbook"
        title={p?.title ?? t('wiki.page.one')}
        breadcrumbs={
          <View className="wiki-noprint">
            <Flex gap="small" marginBottom="small" wrap="wrap">
              <Link to={paths.wiki()}>{t('nav.wiki')}</Link>
              <span aria-hidden="true">›</span>
              <Link to={paths.index(db, 'handbooks')}>{t('wiki.allPages')}</Link>
            </Flex>
            <OpenEntries db={db} currentId={id} />
          </View>
        }
        doc={doc}
        error={q.error}
        editTo={paths.edit(db, 'handbooks', id)}
        afterDelete={paths.wiki()}
        actions={
          <>
            <Button as="a" href={exportZipUrl(db, { id })} size="small" download data-testid="wiki-export">
              {t('wiki.page.export')}
            </Button>
            <Button as="a" href={exportPdfUrl(db, { id })} size="small" download data-testid="wiki-export-pdf">
              {t('wiki.page.exportPdf')}
            </Button>
            <Button size="small" onClick={() => window.print()} data-testid="wiki-print">
              {t('wiki.page.print')}
            </Button>
          </>
        }
        top={
          p ? (
            <Flex direction="column" gap="xs">
              {redirectedFrom ? (
                <Text className="wiki-redirect" data-testid="wiki-redirected" color="font.secondary">
                  {t('wiki.page.redirected', { title: redirectedFrom })}
                </Text>
              ) : null}
              <Flex gap="xs" wrap="wrap" alignItems="center" data-testid="wiki-page-categories">
                {(p.categories ?? []).map((c) => (
                  <Link key={c} to={`${paths.wiki()}?category=${encodeURIComponent(c)}`}>
                    <Badge size="small">{c}</Badge>
                  </Link>
                ))}
                <Text as="span" fontSize="small" color="font.tertiary">
                  {[p.updated_at ? t('wiki.page.updated', { at: formatDateTime(p.updated_at, lang) }) : '', authorName(p.updated_by)].filter(Boolean).join(' · ')}
                </Text>
              </Flex>
            </Flex>
          ) : null
        }
        details={
          p ? (
            <div className="wiki-page">
              {/* html is sanitised by the server (shared/htmlsafe) */}
              <article className="wiki-html" data-testid="page-html" dangerouslySetInnerHTML={{ __html: p.html }} />
              <aside className="wiki-page__side">
                <Flex direction="column" gap="medium">
                  <section aria-labelledby="wiki-links-to" data-testid="links-to" className="wiki-links">
                    <Heading level={3} id="wiki-links-to">
                      {t('wiki.page.linksTo')}
                    </Heading>
                    {p.links.length === 0 && p.wanted.length === 0 ? <Text color="font.secondary">{t('wiki.page.none')}</Text> : null}
                    <ul>
                      {p.links.map((l) => (
                        <li key={l.id}>
                          <Link to={paths.show(db, 'handbooks', l.id)}>{l.title}</Link>
                        </li>
                      ))}
                      {p.wanted.map((w) => (
                        <li key={`w-${w}`}>
                          <Link to={`${paths.create(db, 'handbooks')}?title=${encodeURIComponent(w)}`} className="wiki-wanted" title={t('wiki.page.wanted')}>
                            {w}
                          </Link>{' '}
                          <Text as="span" fontSize="small" color="font.tertiary">
                            ({t('wiki.page.wanted')})
                          </Text>
                        </li>
                      ))}
                    </ul>
                  </section>
                  <section aria-labelledby="wiki-linked-by" data-testid="linked-by" className="wiki-links">
                    <Heading level={3} id="wiki-linked-by">
                      {t('wiki.page.linkedBy')}
                    </Heading>
                    {p.linked_by.length === 0 ? <Text color="font.secondary">{t('wiki.page.none')}</Text> : null}
                    <ul>
                      {p.linked_by.map((l) => (
                        <li key={l.id}>
                          <Link to={paths.show(db, 'handbooks', l.id)}>{l.title}</Link>
                        </li>
                      ))}
                    </ul>
                  </section>
                  {oldTitles(p.title_history).length > 0 ? (
                    <section className="wiki-links" data-testid="wiki-title-history">
                      <Heading level={3}>{t('wiki.page.oldTitles')}</Heading>
                      <ul>
                        {oldTitles(p.title_history).map((h, i) => (
                          <li key={`${i}-${h.title}`}>
                            {h.title}
                            {h.until ? (
                              <Text as="span" fontSize="small" color="font.tertiary">
                                {' '}
                                ({t('wiki.page.oldTitleUntil', { at: formatDateTime(h.until, lang) })})
                              </Text>
                            ) : null}
                          </li>
                        ))}
                      </ul>
                    </section>
                  ) : null}
                  <VersionsPanel db={db} id={id} />
                </Flex>
              </aside>
            </div>
          ) : q.isPending ? (
            <PageLoader />
          ) : null
        }
      />
    </>
  );
}
