// contracts#show: the contract and its numbered terms, comments, history.

import { Button, Card, Flex, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { CommentsPanel } from '../../../components/records/CommentsPanel';
import { ConfirmDelete } from '../../../components/records/ConfirmDelete';
import { HistoryList } from '../../../components/records/HistoryList';
import { MultilineText } from '../../../components/records/MultilineText';
import { RecordLink } from '../../../components/records/RecordPicker';
import { DetailList, RecordShow, type DetailRow } from '../../../components/records/RecordShow';
import { ButtonLink } from '../../../components/RouterLink';
import { deleteDoc } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { docQuery, type Contract } from '../api/servicedocs';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { useShortcuts } from '../components/useShortcuts';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery(docQuery<Contract>(db, id));
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: () => deleteDoc(db, id, String(q.data?._rev ?? '')),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['tickets', db] });
      navigate(paths.index(db, 'contracts'));
    },
  });
  useShortcuts({ e: () => navigate(paths.edit(db, 'contracts', id)) });
  const c = q.data;
  const title = c?.description?.split('\n')[0] || t('nav.contracts');
  const rows: DetailRow[] = c
    ? [
        { key: 'description', label: 'fields.description', value: <MultilineText text={c.description} /> },
        { key: 'customer_id', label: 'fields.customer_id', value: <RecordLink db={db} id={c.customer_id} /> },
        { key: 'payment_kind', label: 'fields.payment_kind', value: c.payment_kind ?? '' },
        { key: 'active', label: 'fields.active', value: t(`docs.activeValues.${c.active === false ? 'false' : 'true'}`) },
        { key: 'created_at', label: 'fields.created_at', value: formatDateTime(c.created_at, i18n.language) },
      ]
    : [];
  const notFound = q.isError && asApiError(q.error).status === 404;
  return (
    <Page
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set="contracts" current={c ? title : undefined} />}
      actions={
        c ? (
          <>
            <ButtonLink to={paths.edit(db, 'contracts', id)} size="small" data-testid="edit-record" aria-keyshortcuts="e">
              <AppIcon name="edit" /> {t('records.edit')}
            </ButtonLink>
            <Button size="small" variation="destructive" onClick={() => setConfirming(true)}>
              <AppIcon name="trash" /> {t('records.delete')}
            </Button>
          </>
        ) : null
      }
    >
      {notFound ? (
        <EmptyState icon="search" title={t('records.notFoundTitle')} message={t('records.notFoundMessage')} testId="record-not-found" />
      ) : (
        <Flex direction="column" gap="medium">
          {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
          <ErrorAlert error={del.error ? asApiError(del.error) : null} onDismiss={() => del.reset()} />
          <RecordShow
            details={
              <Flex direction="column" gap="medium">
                <DetailList rows={rows} loading={q.isPending} />
                {c ? (
                  <Card variation="outlined" data-testid="contract-terms">
                    <Text fontWeight="bold">{t('docs.terms')}</Text>
                    {(c.items ?? []).length === 0 ? <Text variation="tertiary">{t('docs.noTerms')}</Text> : null}
                    <ol className="contract-terms">
                      {(c.items ?? []).map((it, i) => (
                        <li key={i} value={it.number ?? i + 1}>
                          <MultilineText text={it.content} />
                        </li>
                      ))}
                    </ol>
                  </Card>
                ) : null}
              </Flex>
            }
            comments={c ? <CommentsPanel db={db} itemId={id} itemType="Contract" /> : null}
            history={c ? <HistoryList db={db} itemId={id} /> : null}
          />
        </Flex>
      )}
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={title} />
    </Page>
  );
}
