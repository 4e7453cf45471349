// The frame of a service document's show screen: print/edit/delete actions
// (edit on "e" unless the document is frozen), not-found and error states,
// the details beside the comments and history panels, and the delete
// confirmation.

import { Button, Flex } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { CommentsPanel } from '../../../components/records/CommentsPanel';
import { ConfirmDelete } from '../../../components/records/ConfirmDelete';
import { HistoryList } from '../../../components/records/HistoryList';
import { RecordShow } from '../../../components/records/RecordShow';
import { ButtonLink } from '../../../components/RouterLink';
import { deleteDoc, type Doc } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { DeskCrumbs } from './DeskCrumbs';
import { useShortcuts } from './useShortcuts';

export function DocShow({
  set,
  itemType,
  title,
  doc,
  error,
  editable = true,
  actions,
  top,
  details,
}: {
  set: 'estimates' | 'contracts' | 'maintenances';
  itemType: string;
  title: string;
  doc: Doc | undefined;
  error: unknown;
  editable?: boolean;
  /** Actions before edit and delete (print). */
  actions?: ReactNode;
  /** What goes above the details (state moves, notices). */
  top?: ReactNode;
  details: ReactNode;
}) {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: () => deleteDoc(db, id, String(doc?._rev ?? '')),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['tickets', db] });
      navigate(paths.index(db, set));
    },
  });
  useShortcuts({ e: () => editable && navigate(paths.edit(db, set, id)) });
  const notFound = !!error && asApiError(error).status === 404;
  return (
    <Page
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set={set} current={doc ? title : undefined} />}
      actions={
        doc ? (
          <>
            {actions}
            {editable ? (
              <ButtonLink to={paths.edit(db, set, id)} size="small" data-testid="edit-record" aria-keyshortcuts="e">
                <AppIcon name="edit" /> {t('records.edit')}
              </ButtonLink>
            ) : null}
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
          {error ? <ErrorAlert error={asApiError(error)} /> : null}
          <ErrorAlert error={del.error ? asApiError(del.error) : null} onDismiss={() => del.reset()} />
          {top}
          <RecordShow
            details={details}
            comments={doc ? <CommentsPanel db={db} itemId={id} itemType={itemType} /> : null}
            history={doc ? <HistoryList db={db} itemId={id} /> : null}
          />
        </Flex>
      )}
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={title} />
    </Page>
  );
}
