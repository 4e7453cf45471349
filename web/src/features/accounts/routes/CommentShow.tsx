// comments#show (SPEC §2): one comment — who, when, its text, the record it
// is about — with its history.

import { Card, Flex, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Crumbs } from '../../../components/Crumbs';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import type { CommentDoc } from '../../../components/records/CommentsList';
import { HistoryList } from '../../../components/records/HistoryList';
import { DetailList, RecordShow } from '../../../components/records/RecordShow';
import { AppLink } from '../../../components/RouterLink';
import { getDoc } from '../../../lib/couch';
import { liveDoc } from '../../../lib/live-deps';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { paths, recordPath } from '../../../lib/paths';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useQuery({ queryKey: ['record', db, id], queryFn: () => getDoc<CommentDoc>(db, id), retry: false, meta: liveDoc(id) });
  const c = q.data;
  const error = q.isError ? asApiError(q.error) : null;
  const about = c?.item_id ? recordPath(db, c.item_id) : null;
  return (
    <Page
      title={t('accounts.comment')}
      breadcrumbs={<Crumbs label={t('records.breadcrumbs')} items={[{ label: t('nav.dashboard'), to: paths.dashboard(db) }, { label: t('nav.comments') }]} />}
    >
      {error?.status === 404 ? (
        <EmptyState icon="comment" title={t('records.notFoundTitle')} message={t('records.notFoundMessage')} testId="record-not-found" />
      ) : (
        <>
          {error ? <ErrorAlert error={error} /> : null}
          <RecordShow
            details={
              <Flex direction="column" gap="medium">
                <DetailList
                  loading={q.isPending}
                  rows={[
                    { key: 'user', label: 'fields.user', value: c?.user?.label || c?.created_by?.label || '' },
                    { key: 'date', label: 'fields.date', value: formatDateTime(c?.date || c?.created_at, i18n.language) },
                    { key: 'about', label: 'accounts.commentAbout', value: about && c?.item_id ? <AppLink to={about}>{c.item_id}</AppLink> : '' },
                  ]}
                />
                {c?.content ? (
                  <Card variation="elevated">
                    <Text whiteSpace="pre-wrap" data-testid="comment-content">
                      {c.content}
                    </Text>
                  </Card>
                ) : null}
              </Flex>
            }
            history={<HistoryList db={db} itemId={id} />}
          />
        </>
      )}
    </Page>
  );
}
