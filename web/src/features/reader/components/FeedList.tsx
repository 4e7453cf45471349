// The feed list (SPEC §2 "Feed list"): read, starred and label filters,
// numbered pages of 10 with previous and next, each item's content shown
// or hidden, read and star toggles, the more-actions menu, the "mark as
// read on opening" checkbox, and keyboard shortcuts (j/k/o/m/s/v/p/r/?). The
// dashboard shows it for exoreader, and reader_items#index.

import { Button, CheckboxField, Flex, Placeholder, SelectField, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { LoadError } from '../../../components/LoadError';
import { AppIcon } from '../../../components/icons';
import { NumberedPaging } from '../../../components/records/Paging';
import { ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { onAppEvent } from '../../../lib/events';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useFeed } from '../api/feed';
import { unreadQuery, useLabels } from '../api/labels';
import { useMarkReadSetting } from '../api/mark-read-setting';
import { useRefreshFeeds } from '../api/refresh';
import { useToggleItem } from '../api/toggle';
import { READ_FILTERS, STARRED_FILTERS, type ReaderItem } from '../api/types';
import { toggleEpisode } from './Enclosures';
import { FeedItem, openOriginal } from './FeedItem';
import { useFeedFilters } from './filters';
import { ShortcutsHelp } from './ShortcutsHelp';
import { useShortcuts, type ShortcutAction } from './shortcuts';

export function FeedList({ db }: { db: string }) {
  const { t } = useTranslation();
  const [filters, setFilters] = useFeedFilters();
  const feed = useFeed(db, filters);
  const labels = useLabels(db);
  const unread = useQuery(unreadQuery(db));
  const toggle = useToggleItem(db);
  const refresh = useRefreshFeeds(db);
  const session = useSession();
  const markRead = useMarkReadSetting(session?.userId ?? '');
  const [openIds, setOpenIds] = useState<Set<string>>(new Set());
  const [cursor, setCursor] = useState(-1);
  const [help, setHelp] = useState(false);
  const itemRefs = useRef<Array<HTMLElement | null>>([]);
  const { refetch } = feed;
  useEffect(() => onAppEvent('reload', () => void refetch()), [refetch]);

  const items: ReaderItem[] = useMemo(() => (feed.data?.rows ?? []).map((r) => r.doc), [feed.data]);
  const labelNames = useMemo(() => Object.fromEntries((labels.data ?? []).map((l) => [l._id, l.name])), [labels.data]);
  const pages = feed.data?.pages ?? 1;
  // A new page starts with no item selected and every item closed.
  useEffect(() => {
    setCursor(-1);
    setOpenIds(new Set());
  }, [filters.page, filters.read, filters.starred, filters.label]);

  const setOpen = (item: ReaderItem, open: boolean) => {
    setOpenIds((prev) => {
      const next = new Set(prev);
      if (open) next.add(item._id);
      else next.delete(item._id);
      return next;
    });
    if (open && !item.read && markRead.on) toggle.mutate({ id: item._id, fn: 'read' });
  };
  const toggleRead = (item: ReaderItem) => toggle.mutate({ id: item._id, fn: item.read ? 'unread' : 'read' });
  const toggleStar = (item: ReaderItem) => toggle.mutate({ id: item._id, fn: item.starred ? 'unstar' : 'star' });
  const select = (i: number) => {
    setCursor(i);
    const el = itemRefs.current[i];
    if (el) {
      el.focus({ preventScroll: true });
      el.scrollIntoView?.({ block: 'nearest' });
    }
  };

  useShortcuts((a: ShortcutAction) => {
    const current = cursor >= 0 ? items[cursor] : undefined;
    switch (a) {
      case 'next':
        if (cursor < items.length - 1) select(cursor + 1);
        else if (filters.page < pages) setFilters({ page: filters.page + 1 });
        break;
      case 'previous':
        if (cursor > 0) select(cursor - 1);
        else if (cursor < 0 && items.length > 0) select(0);
        else if (filters.page > 1) setFilters({ page: filters.page - 1 });
        break;
      case 'open':
        if (current) setOpen(current, !openIds.has(current._id));
        break;
      case 'toggleRead':
        if (current) toggleRead(current);
        break;
      case 'toggleStar':
        if (current) toggleStar(current);
        break;
      case 'original':
        if (current) openOriginal(current.url);
        break;
      case 'play':
        toggleEpisode(itemRefs.current[cursor]);
        break;
      case 'refresh':
        if (!refresh.isPending) refresh.mutate(undefined);
        break;
      case 'help':
        setHelp(true);
        break;
    }
  }, !help);

  const error = feed.isError ? asApiError(feed.error) : null;
  const unreadAll = unread.data?.[''] ?? 0;
  return (
    <Flex direction="column" gap="small" data-testid="feed-list">
      <div className="feed-filters" role="group" aria-label={t('reader.filters')}>
        <SelectField
          label={t('reader.readFilter')}
          size="small"
          value={filters.read}
          onChange={(e) => setFilters({ read: e.target.value as (typeof READ_FILTERS)[number] })}
          data-testid="filter-read"
        >
          {READ_FILTERS.map((v) => (
            <option key={v} value={v}>
              {t(`reader.read_${v}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('reader.starredFilter')}
          size="small"
          value={filters.starred}
          onChange={(e) => setFilters({ starred: e.target.value as (typeof STARRED_FILTERS)[number] })}
          data-testid="filter-starred"
        >
          {STARRED_FILTERS.map((v) => (
            <option key={v} value={v}>
              {t(`reader.starred_${v}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('reader.labelFilter')}
          descriptiveText={<span className="amplify-visually-hidden">{t('reader.unreadCount')}</span>}
          size="small"
          value={filters.label}
          onChange={(e) => setFilters({ label: e.target.value })}
          data-testid="filter-label"
        >
          <option value="">{t('reader.allLabels', { count: unreadAll })}</option>
          {(labels.data ?? []).map((l) => (
            <option key={l._id} value={l._id}>
              {t('reader.labelWithUnread', { name: l.name, count: unread.data?.[l._id] ?? 0 })}
            </option>
          ))}
        </SelectField>
      </div>
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <CheckboxField
          label={t('reader.markReadOnOpening')}
          name="reader_mark_as_read_on_opening"
          checked={markRead.on}
          onChange={(e) => markRead.set(e.target.checked)}
          data-testid="mark-read-on-opening"
        />
        <Flex gap="xs">
          <Button size="small" onClick={() => refresh.mutate(undefined)} isLoading={refresh.isPending} data-testid="refresh-feeds" loadingText={t('reader.refreshing')}>
            <AppIcon name="refresh" /> {t('reader.refresh')}
          </Button>
          <Button size="small" variation="link" onClick={() => setHelp(true)} data-testid="show-shortcuts" aria-label={t('reader.shortcuts.title')}>
            <kbd className="shortcut-key">?</kbd>
          </Button>
        </Flex>
      </Flex>
      {refresh.data ? (
        <Text variation="secondary" fontSize="small" role="status" data-testid="refresh-result">
          {t('reader.refreshed', { feeds: refresh.data.feeds, items: refresh.data.items, failed: refresh.data.failed })}
        </Text>
      ) : null}
      <ErrorAlert error={refresh.error ? asApiError(refresh.error) : null} onDismiss={() => refresh.reset()} />
      <ErrorAlert error={toggle.error ? asApiError(toggle.error) : null} onDismiss={() => toggle.reset()} />
      {error ? (
        <LoadError error={error} onRetry={() => void refetch()} icon="reader" testId="feed-error" />
      ) : feed.isPending ? (
        <Flex direction="column" gap="small" aria-busy="true" data-testid="feed-loading">
          {[0, 1, 2].map((i) => (
            <Placeholder key={i} size="large" />
          ))}
        </Flex>
      ) : items.length === 0 ? (
        <EmptyState
          icon="reader"
          title={t(filters.read === 'unread' && filters.starred === 'all' && !filters.label && filters.page === 1 ? 'reader.emptyUnread' : 'reader.emptyFiltered')}
          message={t('reader.emptyMessage')}
          testId="feed-empty"
          action={
            <ButtonLink to={paths.create(db, 'reader_subscriptions')} size="small">
              <AppIcon name="plus" /> {t('reader.subscribe')}
            </ButtonLink>
          }
        />
      ) : (
        <Flex direction="column" gap="small" as="section" aria-label={t('reader.items')} aria-busy={feed.isFetching}>
          <Text variation="tertiary" fontSize="small" data-testid="feed-total">
            {t('reader.total', { count: feed.data?.total_rows ?? 0 })}
          </Text>
          {items.map((item, i) => (
            <FeedItem
              key={item._id}
              ref={(el) => {
                itemRefs.current[i] = el;
              }}
              db={db}
              item={item}
              open={openIds.has(item._id)}
              current={i === cursor}
              labelNames={labelNames}
              onOpenChange={(open) => setOpen(item, open)}
              onToggleRead={() => toggleRead(item)}
              onToggleStar={() => toggleStar(item)}
              onFocusItem={() => setCursor(i)}
            />
          ))}
        </Flex>
      )}
      <NumberedPaging page={filters.page} totalPages={pages} hasMore={filters.page < pages} onPage={(p) => setFilters({ page: p })} />
      <ShortcutsHelp open={help} onClose={() => setHelp(false)} />
    </Flex>
  );
}
