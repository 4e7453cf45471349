// One item of the feed list: its title (opens or closes its content), where
// and when it was posted, its summary, read and star toggles, and a menu to
// open it in a new window (reader_items#show), open the original, or load
// the original's readable content; a podcast's episode plays on the item.

import { Alert, Badge, Button, Card, Flex, Menu, MenuButton, MenuItem, Placeholder, Text, VisuallyHidden } from '@aws-amplify/ui-react';
import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';
import { useErrorText } from '../../../components/ErrorAlert';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useItem } from '../api/item';
import { useLoadContent } from '../api/load-content';
import type { ReaderItem } from '../api/types';
import { Enclosures } from './Enclosures';
import { ItemContent } from './ItemContent';

export interface FeedItemProps {
  db: string;
  item: ReaderItem;
  open: boolean;
  current: boolean;
  labelNames: Record<string, string>;
  onOpenChange: (open: boolean) => void;
  onToggleRead: () => void;
  onToggleStar: () => void;
  onFocusItem: () => void;
}

/** openOriginal opens the item's own page in a new tab, without an opener. */
export function openOriginal(url: string | undefined) {
  if (url && /^https?:\/\//i.test(url)) window.open(url, '_blank', 'noopener,noreferrer');
}

/** openInNewWindow opens reader_items#show in a new tab. */
export function openInNewWindow(db: string, id: string) {
  window.open(paths.show(db, 'reader_items', id), '_blank', 'noopener');
}

export const FeedItem = forwardRef<HTMLElement, FeedItemProps>(function FeedItem(
  { db, item, open, current, labelNames, onOpenChange, onToggleRead, onToggleStar, onFocusItem },
  ref,
) {
  const { t, i18n } = useTranslation();
  const full = useItem(db, item._id, open);
  const load = useLoadContent(db);
  const { message } = useErrorText();
  const title = item.title || t('reader.untitled');
  const contentId = `content-${item._id}`;
  const source = item.reader_subscription?.title;
  const content = full.data?.content ?? '';
  const loadError = load.error ? asApiError(load.error) : null;
  return (
    <Card
      as="article"
      ref={ref}
      variation="outlined"
      className={`feed-item${item.read ? ' feed-item--read' : ''}`}
      aria-current={current ? 'true' : undefined}
      aria-labelledby={`title-${item._id}`}
      tabIndex={-1}
      onFocus={onFocusItem}
      data-testid="feed-item"
      data-read={item.read ? 'true' : 'false'}
      data-starred={item.starred ? 'true' : 'false'}
    >
      <Flex direction="column" gap="xs">
        <Flex justifyContent="space-between" alignItems="flex-start" gap="small" wrap="wrap">
          <button
            type="button"
            id={`title-${item._id}`}
            className="feed-item__title"
            aria-expanded={open}
            aria-controls={contentId}
            onClick={() => onOpenChange(!open)}
            data-testid="item-title"
          >
            {item.starred ? <AppIcon name="star" title={t('reader.starred')} /> : null} {title}
          </button>
          <Flex gap="xs" alignItems="center">
            <Button
              size="small"
              variation="link"
              onClick={onToggleRead}
              aria-pressed={!!item.read}
              data-testid="toggle-read"
              title={item.read ? t('reader.markUnread') : t('reader.markRead')}
            >
              <AppIcon name="check" />
              <VisuallyHidden>{item.read ? t('reader.markUnread') : t('reader.markRead')}</VisuallyHidden>
            </Button>
            <Button
              size="small"
              variation="link"
              onClick={onToggleStar}
              aria-pressed={!!item.starred}
              data-testid="toggle-star"
              title={item.starred ? t('reader.unstar') : t('reader.star')}
            >
              <AppIcon name={item.starred ? 'star' : 'bookmark'} />
              <VisuallyHidden>{item.starred ? t('reader.unstar') : t('reader.star')}</VisuallyHidden>
            </Button>
            <Menu
              trigger={
                <MenuButton size="small" variation="link" data-testid="item-menu" aria-label={t('reader.moreActions')}>
                  <AppIcon name="more" />
                </MenuButton>
              }
            >
              <MenuItem onClick={() => openInNewWindow(db, item._id)} data-testid="menu-new-window">
                <AppIcon name="external" /> {t('reader.openNewWindow')}
              </MenuItem>
              <MenuItem onClick={() => openOriginal(item.url)} isDisabled={!item.url} data-testid="menu-original">
                <AppIcon name="reader" /> {t('reader.openOriginal')}
              </MenuItem>
              <MenuItem
                onClick={() => {
                  onOpenChange(true);
                  load.mutate(item._id);
                }}
                isDisabled={!item.url || load.isPending}
                data-testid="menu-load-content"
              >
                <AppIcon name="docs" /> {t('reader.loadContent')}
              </MenuItem>
            </Menu>
          </Flex>
        </Flex>
        <Text variation="secondary" fontSize="small">
          {source ? <span data-testid="item-source">{source}</span> : null}
          {source && item.posted_at ? ' · ' : null}
          {item.posted_at ? <time dateTime={item.posted_at}>{formatDateTime(item.posted_at, i18n.language)}</time> : null}
          {item.read ? (
            <>
              {' · '}
              {t('reader.read')}
            </>
          ) : null}
        </Text>
        {item.reader_label_ids?.length ? (
          <Flex gap="xs" wrap="wrap">
            {item.reader_label_ids.map((l) =>
              labelNames[l] ? (
                <Badge key={l} size="small">
                  {labelNames[l]}
                </Badge>
              ) : null,
            )}
          </Flex>
        ) : null}
        <Enclosures enclosures={item.enclosures} title={title} />
        <div id={contentId} hidden={!open}>
          {open ? (
            full.isPending || load.isPending ? (
              <Flex direction="column" gap="xs" aria-busy="true">
                <Placeholder />
                <Placeholder />
              </Flex>
            ) : content ? (
              <ItemContent content={content} type={full.data?.content_type} />
            ) : (
              <Text variation="secondary">{item.summary || t('reader.noContent')}</Text>
            )
          ) : null}
          {loadError ? (
            <Alert variation="warning" isDismissible onDismiss={() => load.reset()} marginTop="small" data-testid="load-content-error">
              {t('reader.loadContentFailed')} {Object.values(loadError.fields).flat().map(message).join(': ') || message(loadError.reason)}
            </Alert>
          ) : null}
        </div>
        {!open && item.summary ? (
          <Text fontSize="small" className="feed-item__summary">
            {item.summary}
          </Text>
        ) : null}
      </Flex>
    </Card>
  );
});
