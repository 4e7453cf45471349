// The frame of a module's show screen: the actions (the module's own, then
// edit on "e" unless the record is frozen, then delete), not-found and error
// states, the details beside the comments and history panels, and the
// delete confirmation. The comments and history need only the record's id:
// their reads start with the record's own and go out in its batch
// (lib/batch.ts), not one round trip after it.

import { Flex } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { deleteDoc, type Doc } from '../../lib/couch';
import { asApiError } from '../../lib/errors';
import { ErrorAlert } from '../ErrorAlert';
import { Page } from '../Page';
import { CommentsPanel } from './CommentsPanel';
import { ConfirmDelete } from './ConfirmDelete';
import { HistoryList } from './HistoryList';
import { RecordShow } from './RecordShow';
import { useShortcuts } from './useShortcuts';
import { RecordActions } from './RecordActions';
import { RecordNotFound } from './RecordNotFound';

export function ShowFrame({
  scope,
  itemType,
  title,
  breadcrumbs,
  doc,
  error,
  editTo,
  afterDelete,
  deleteBlocked,
  actions,
  top,
  details,
  width,
}: {
  /** The module's query-key root, refreshed after a delete. */
  scope: string;
  itemType: string;
  title: string;
  breadcrumbs?: ReactNode;
  doc: Doc | undefined;
  error: unknown;
  /** Where edit goes; null when the record cannot be edited. */
  editTo: string | null;
  /** Where to go once deleted. */
  afterDelete: string;
  /** Why the record cannot be deleted (the button is disabled and says so). */
  deleteBlocked?: string | undefined;
  /** Actions before edit and delete. */
  actions?: ReactNode;
  /** What goes above the details (state moves, notices). */
  top?: ReactNode;
  details: ReactNode;
  width?: 'narrow' | 'medium' | 'wide';
}) {
  const { account_id: db = '', record_id: id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: () => deleteDoc(db, id, String(doc?._rev ?? '')),
    onSuccess: async () => {
      await Promise.all([scope, 'records'].map((root) => qc.invalidateQueries({ queryKey: [root, db] })));
      navigate(afterDelete);
    },
    onSettled: () => setConfirming(false),
  });
  useShortcuts({ e: () => editTo && navigate(editTo) });
  const notFound = !!error && asApiError(error).status === 404;
  return (
    <Page
      title={title}
      width={width}
      breadcrumbs={breadcrumbs}
      actions={
        doc ? (
          <>
            {actions}
            <RecordActions editTo={editTo} editShortcut onDelete={() => setConfirming(true)} deleteBlocked={deleteBlocked} />
          </>
        ) : null
      }
    >
      {notFound ? (
        <RecordNotFound />
      ) : (
        <Flex direction="column" gap="medium">
          {error ? <ErrorAlert error={asApiError(error)} /> : null}
          <ErrorAlert error={del.error ? asApiError(del.error) : null} onDismiss={() => del.reset()} />
          {top}
          <RecordShow
            details={details}
            comments={<CommentsPanel db={db} itemId={id} itemType={itemType} />}
            history={<HistoryList db={db} itemId={id} />}
          />
        </Flex>
      )}
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={title} />
    </Page>
  );
}
