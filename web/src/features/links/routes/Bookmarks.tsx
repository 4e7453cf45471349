// bookmarks#index (/account/:account_id/bookmarks): the Group's links with a
// search, a tag filter and "starred only" in the URL, numbered pages, add and
// edit in a modal, star, delete with confirmation, import of a browser's
// bookmark file and export. "n" adds a link.

import { Badge, Button, CheckboxField, Flex, Link as ALink, SearchField, SelectField, Text } from '@aws-amplify/ui-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { ConfirmDelete } from '../../../components/records/ConfirmDelete';
import { NumberedPaging } from '../../../components/records/Paging';
import { useShortcuts } from '../../../components/records/useShortcuts';
import { asApiError } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { type Bookmark, exportUrl, listQuery, removeBookmark, SCOPE, setStarred, tagList, tagsQuery } from '../api/bookmarks';
import { BookmarkForm } from '../components/BookmarkForm';
import { ImportPanel } from '../components/ImportPanel';
import '../components/links.css';
import { useLatestSearchParams } from '../../../lib/search-params';

const PER_PAGE = 25;

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '' } = useParams();
  const qc = useQueryClient();
  const [sp, setSp] = useLatestSearchParams();
  const q = sp.get('q') ?? '';
  const tag = sp.get('tag') ?? '';
  const starred = sp.get('starred') === '1';
  const page = Math.max(1, Number.parseInt(sp.get('page') ?? '1', 10) || 1);
  const [editing, setEditing] = useState<Bookmark | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Bookmark | null>(null);
  useShortcuts({ n: () => setEditing('new') });
  const list = useQuery({ ...listQuery({ db, q, tag, starred, page, perPage: PER_PAGE }), placeholderData: keepPreviousData });
  const tags = useQuery(tagsQuery(db));
  const setParam = (k: string, v: string | null) =>
    setSp((prev) => {
      const next = new URLSearchParams(prev);
      if (v) next.set(k, v);
      else next.delete(k);
      if (k !== 'page') next.delete('page');
      return next;
    });
  const refresh = () => qc.invalidateQueries({ queryKey: [SCOPE, db] });
  const star = useMutation({ mutationFn: (b: Bookmark) => setStarred(db, b, !b.starred), onSettled: refresh });
  const del = useMutation({
    mutationFn: (b: Bookmark) => removeBookmark(db, b),
    onSettled: async () => {
      setDeleting(null);
      await refresh();
    },
  });
  const lang = i18n.language;
  const filtered = !!q || !!tag || starred;
  const rows = list.data?.rows ?? [];
  return (
    <Page
      title={t('nav.bookmarks')}
      actions={
        <>
          <Button as="a" href={exportUrl(db)} download size="small" data-testid="bookmarks-export">
            {t('links.export')}
          </Button>
          <Button size="small" variation="primary" onClick={() => setEditing('new')} data-testid="bookmark-new" aria-keyshortcuts="n">
            {t('links.add')}
          </Button>
        </>
      }
    >
      <Flex direction="column" gap="medium">
        <Flex gap="small" wrap="wrap" alignItems="flex-end" role="search">
          <SearchField
            key={q ? 'search' : 'no-search'}
            label={t('links.search')}
            placeholder={t('links.search')}
            defaultValue={q}
            size="small"
            onSubmit={(v) => setParam('q', v.trim() || null)}
            onClear={() => setParam('q', null)}
            data-testid="bookmarks-search"
          />
          <SelectField label={t('links.tag')} size="small" value={tag} onChange={(e) => setParam('tag', e.target.value || null)} data-testid="bookmarks-tag">
            <option value="">{t('links.anyTag')}</option>
            {tags.data?.map((x) => (
              <option key={x.tag} value={x.tag}>
                {`${x.tag} (${x.count})`}
              </option>
            ))}
          </SelectField>
          <CheckboxField label={t('links.starredOnly')} name="starred" checked={starred} onChange={(e) => setParam('starred', e.target.checked ? '1' : null)} data-testid="bookmarks-starred" />
        </Flex>
        <ImportPanel db={db} />
        {list.isError ? <ErrorAlert error={asApiError(list.error)} onDismiss={() => void list.refetch()} /> : null}
        {star.error ? <ErrorAlert error={asApiError(star.error)} onDismiss={() => star.reset()} /> : null}
        {del.error ? <ErrorAlert error={asApiError(del.error)} onDismiss={() => del.reset()} /> : null}
        {list.isPending ? (
          <Text role="status">{t('links.loading')}</Text>
        ) : rows.length === 0 && !list.isError ? (
          <EmptyState
            icon="bookmark"
            title={filtered ? t('links.noMatches') : t('links.emptyTitle')}
            message={filtered ? t('links.noMatchesHelp') : t('links.emptyMessage')}
            testId="bookmarks-empty"
            action={
              <Button variation="primary" onClick={() => setEditing('new')}>
                {t('links.add')}
              </Button>
            }
          />
        ) : (
          <ul className="bookmark-list" data-testid="bookmarks-list" aria-busy={list.isFetching}>
            {rows.map((b) => (
              <li key={b._id} className="bookmark-row" data-testid={`bookmark-row-${b._id}`}>
                <button
                  type="button"
                  className="bookmark-star"
                  aria-pressed={!!b.starred}
                  aria-label={b.starred ? t('links.unstar', { title: b.title || b.url }) : t('links.star', { title: b.title || b.url })}
                  onClick={() => star.mutate(b)}
                >
                  {b.starred ? '★' : '☆'}
                </button>
                <div className="bookmark-row__main">
                  <ALink href={b.url} isExternal rel="noopener noreferrer" className="bookmark-row__title">
                    {b.title || b.url}
                  </ALink>
                  <Text fontSize="small" color="font.tertiary" className="bookmark-row__url">
                    {b.url}
                  </Text>
                  {b.description ? <Text fontSize="small">{b.description}</Text> : null}
                  <Flex gap="xxs" wrap="wrap" alignItems="center">
                    {tagList(b.tags).map((x) => (
                      <button key={x} type="button" className="bookmark-tag" onClick={() => setParam('tag', x)} aria-label={t('links.filterTag', { tag: x })}>
                        <Badge size="small">{x}</Badge>
                      </button>
                    ))}
                    {b.added_at ? (
                      <Text as="span" fontSize="small" color="font.tertiary">
                        {t('links.added', { date: formatDate(b.added_at, lang) })}
                      </Text>
                    ) : null}
                  </Flex>
                </div>
                <Flex gap="xs" className="bookmark-row__actions">
                  <Button size="small" onClick={() => setEditing(b)} aria-label={t('links.edit', { title: b.title || b.url })}>
                    {t('links.editShort')}
                  </Button>
                  <Button size="small" variation="destructive" onClick={() => setDeleting(b)} aria-label={t('links.delete', { title: b.title || b.url })}>
                    {t('links.deleteShort')}
                  </Button>
                </Flex>
              </li>
            ))}
          </ul>
        )}
        <NumberedPaging page={page} hasMore={!!list.data?.hasMore} onPage={(n) => setParam('page', n === 1 ? null : String(n))} />
      </Flex>
      {editing ? <BookmarkForm key={editing === 'new' ? 'new' : editing._id} db={db} doc={editing === 'new' ? undefined : editing} open onClose={() => setEditing(null)} /> : null}
      <ConfirmDelete open={!!deleting} onCancel={() => setDeleting(null)} onConfirm={() => deleting && del.mutate(deleting)} busy={del.isPending} what={deleting?.title || deleting?.url || ''} />
    </Page>
  );
}
