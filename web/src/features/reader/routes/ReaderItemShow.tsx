// reader_items#show: one item in its own window — its episode's player, its content (marked read
// on opening when the user keeps that setting), toggles, the original, load
// content, and the comments and history panels.

import { Button, Flex, Link, Text } from '@aws-amplify/ui-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { CommentsPanel } from '../../../components/records/CommentsPanel';
import { HistoryList } from '../../../components/records/HistoryList';
import { RecordLink } from '../../../components/records/RecordPicker';
import { RecordShow } from '../../../components/records/RecordShow';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useItem } from '../api/item';
import { useLoadContent } from '../api/load-content';
import { useMarkReadSetting } from '../api/mark-read-setting';
import { useToggleItem } from '../api/toggle';
import { Enclosures } from '../components/Enclosures';
import { ItemContent } from '../components/ItemContent';
import { ReaderCrumbs } from '../components/ReaderCrumbs';
import { RecordNotFound } from '../../../components/records/RecordNotFound';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useItem(db, id);
  const toggle = useToggleItem(db);
  const load = useLoadContent(db);
  const session = useSession();
  const markRead = useMarkReadSetting(session?.userId ?? '');
  const item = q.data;
  const marked = useRef(false);
  useEffect(() => {
    if (item && !item.read && markRead.on && !marked.current) {
      marked.current = true;
      toggle.mutate({ id: item._id, fn: 'read' });
    }
  }, [item, markRead.on, toggle]);

  const title = item?.title || t('reader.untitled');
  const notFound = q.isError && asApiError(q.error).status === 404;
  return (
    <Page
      title={item ? title : t('nav.reader_items')}
      breadcrumbs={<ReaderCrumbs db={db} set="reader_items" current={item ? title : undefined} />}
      actions={
        item ? (
          <>
            <Button size="small" onClick={() => toggle.mutate({ id, fn: item.read ? 'unread' : 'read' })} aria-pressed={!!item.read} data-testid="toggle-read">
              <AppIcon name="check" /> {item.read ? t('reader.markUnread') : t('reader.markRead')}
            </Button>
            <Button size="small" onClick={() => toggle.mutate({ id, fn: item.starred ? 'unstar' : 'star' })} aria-pressed={!!item.starred} data-testid="toggle-star">
              <AppIcon name={item.starred ? 'star' : 'bookmark'} /> {item.starred ? t('reader.unstar') : t('reader.star')}
            </Button>
            {item.url ? (
              <>
                <Button size="small" onClick={() => load.mutate(id)} isLoading={load.isPending} loadingText={t('reader.loadContent')} data-testid="load-content">
                  <AppIcon name="docs" /> {t('reader.loadContent')}
                </Button>
                <Button as="a" size="small" href={item.url} target="_blank" rel="noopener noreferrer" data-testid="open-original">
                  <AppIcon name="external" /> {t('reader.openOriginal')}
                </Button>
              </>
            ) : null}
          </>
        ) : null
      }
    >
      {notFound ? (
        <RecordNotFound />
      ) : (
        <>
          {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
          <ErrorAlert error={load.error ? asApiError(load.error) : null} onDismiss={() => load.reset()} showFields />
          <ErrorAlert error={toggle.error ? asApiError(toggle.error) : null} onDismiss={() => toggle.reset()} />
          <RecordShow
            details={
              item ? (
                <Flex direction="column" gap="small" data-testid="reader-item">
                  <Text variation="secondary" fontSize="small">
                    {item.reader_subscription_id ? (
                      <RecordLink db={db} id={item.reader_subscription_id} labelField="title" />
                    ) : (
                      item.reader_subscription?.title
                    )}
                    {item.posted_at ? <> · {formatDateTime(item.posted_at, i18n.language)}</> : null}
                    {item.author ? <> · {item.author}</> : null}
                  </Text>
                  <Enclosures enclosures={item.enclosures} title={title} />
                  {item.content ? (
                    <ItemContent content={item.content} type={item.content_type} />
                  ) : (
                    <Text>{item.summary || t('reader.noContent')}</Text>
                  )}
                  {item.url ? (
                    <Link href={item.url} isExternal rel="noopener noreferrer" fontSize="small">
                      {item.url}
                    </Link>
                  ) : null}
                </Flex>
              ) : (
                <Text aria-busy="true">{t('common.loading')}</Text>
              )
            }
            // By the item's id: read with it, in its batch (lib/batch.ts).
            comments={<CommentsPanel db={db} itemId={id} itemType="ReaderItem" />}
            history={<HistoryList db={db} itemId={id} />}
          />
        </>
      )}
    </Page>
  );
}
