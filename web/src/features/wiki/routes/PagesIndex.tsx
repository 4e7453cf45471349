// handbooks#index: every page with its categories and last update; search by
// title and one category in the URL, numbered pages, "n" for a new page.

import { Badge, Button, Flex, SearchField, SelectField } from '@aws-amplify/ui-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { NumberedPaging } from '../../../components/records/Paging';
import { RecordTable, type Column } from '../../../components/records/RecordTable';
import { useIndexParams } from '../../../components/records/search-params';
import { useShortcuts } from '../../../components/records/useShortcuts';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { categoriesList, categoriesOf, type Handbook, pagesQuery, SCOPE } from '../api/wiki';
import '../components/wiki.css';
import { useLatestSearchParams } from '../../../lib/search-params';

const DEFAULTS = { orderBy: 'title', direction: 'asc' as const, perPage: 25 };
const ORDERS = ['title', 'updated_at'] as const;

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '' } = useParams();
  const navigate = useNavigate();
  const [sp, setSp] = useLatestSearchParams();
  const [p, update] = useIndexParams(DEFAULTS, ORDERS);
  const category = sp.get('category') ?? '';
  const newTo = paths.create(db, 'handbooks');
  useShortcuts({ n: () => navigate(newTo) });
  const q = useQuery({ ...pagesQuery({ db, q: p.q, category, orderBy: p.orderBy, direction: p.direction, page: p.page, perPage: p.perPage }), placeholderData: keepPreviousData });
  const cats = useQuery({ queryKey: [SCOPE, db, 'categories'], queryFn: () => categoriesList(db) });
  const lang = i18n.language;
  const setCategory = (c: string) =>
    setSp((prev) => {
      const next = new URLSearchParams(prev);
      if (c) next.set('category', c);
      else next.delete('category');
      next.delete('page');
      return next;
    });
  const columns: Column<Handbook>[] = [
    { key: 'title', label: 'wiki.index.title', render: (r) => r.title },
    {
      key: 'categories',
      label: 'wiki.index.categories',
      render: (r) => (
        <Flex gap="xxs" wrap="wrap">
          {categoriesOf(r.categories).map((c) => (
            <Badge key={c} size="small">
              {c}
            </Badge>
          ))}
        </Flex>
      ),
    },
    { key: 'updated_at', label: 'wiki.index.updated', render: (r) => (r.updated_at ? formatDateTime(r.updated_at, lang) : '') },
  ];
  const filtered = !!p.q || !!category;
  return (
    <Page
      title={t('wiki.allPages')}
      breadcrumbs={<Link to={paths.wiki()}>{t('nav.wiki')}</Link>}
      actions={
        <Button as={Link} to={newTo} size="small" variation="primary" data-testid="new-record" aria-keyshortcuts="n">
          {t('wiki.newPage')}
        </Button>
      }
    >
      <Flex direction="column" gap="medium">
        <Flex gap="small" wrap="wrap" alignItems="flex-end" role="search">
          <SearchField
            key={p.q ? 'search' : 'no-search'}
            label={t('wiki.index.search')}
            placeholder={t('wiki.index.search')}
            defaultValue={p.q}
            size="small"
            onSubmit={(v) => update({ q: v.trim() || null, page: null })}
            onClear={() => update({ q: null, page: null })}
            data-testid="wiki-index-search"
          />
          <SelectField label={t('wiki.index.category')} size="small" value={category} onChange={(e) => setCategory(e.target.value)} data-testid="wiki-index-category">
            <option value="">{t('wiki.index.anyCategory')}</option>
            {cats.data?.rows.map((c) => (
              <option key={c.category} value={c.category}>
                {`${c.category} (${c.count})`}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('wiki.index.order')}
            size="small"
            value={`${p.orderBy}:${p.direction}`}
            onChange={(e) => {
              const [o, d] = e.target.value.split(':');
              update({ order_by: o ?? null, direction: d ?? null, page: null });
            }}
          >
            <option value="title:asc">{t('wiki.index.byTitle')}</option>
            <option value="updated_at:desc">{t('wiki.index.byUpdate')}</option>
          </SelectField>
        </Flex>
        {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void q.refetch()} /> : null}
        <RecordTable
          columns={columns}
          rows={q.data?.rows ?? []}
          rowKey={(r) => r._id}
          rowLink={(r) => paths.show(db, 'handbooks', r._id)}
          loading={q.isPending}
          caption={t('wiki.allPages')}
          rowTestId={(r) => `wiki-page-row-${r._id}`}
          empty={
            q.isError ? null : (
              <EmptyState
                icon="wiki"
                title={filtered ? t('records.noMatches') : t('wiki.empty.title')}
                message={filtered ? t('wiki.search.noneHelp') : t('wiki.empty.message')}
                testId="records-empty"
                action={
                  <Button as={Link} to={newTo} variation="primary">
                    {t('wiki.newPage')}
                  </Button>
                }
              />
            )
          }
        />
        <NumberedPaging page={p.page} hasMore={!!q.data?.hasMore} onPage={(n) => update({ page: n === 1 ? null : n })} />
      </Flex>
    </Page>
  );
}
