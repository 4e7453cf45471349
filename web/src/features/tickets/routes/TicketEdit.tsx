// tickets#edit: the ticket form on the stored ticket; a stale revision gets
// the "updated by someone else" message, nothing is overwritten.

import { Placeholder } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ownWrite, refetchOwnWrite } from '../../../lib/live-deps';
import { Page } from '../../../components/Page';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { saveTicket, ticketQuery } from '../api/tickets';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { TicketForm, type TicketValues } from '../components/TicketForm';
import { RecordNotFoundPage } from '../../../components/records/RecordNotFound';

/** Fields the server keeps: never sent back from the form. */
const SERVER_FIELDS = ['number', 'title', 'checklist', 'status_at', 'created_at', 'updated_at', 'created_by', 'updated_by'];

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery(ticketQuery(db, id));
  const [values, setValues] = useState<TicketValues | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    if (q.data && values === null) setValues(q.data);
  }, [q.data, values]);
  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, unknown> = { ...values };
      for (const f of SERVER_FIELDS) delete body[f];
      for (const [k, v] of Object.entries(body)) if (v === null || v === '') delete body[k];
      return saveTicket(db, body as TicketValues);
    },
    onSuccess: async (res) => {
      await refetchOwnWrite(qc, ownWrite(db, id, 'Ticket', false, res.rev), undefined, res.doc);
      navigate(paths.show(db, 'tickets', id));
    },
    onError: (e) => setError(asApiError(e)),
  });
  const title = q.data ? `#${q.data.number} ${q.data.title ?? ''}` : t('tickets.edit');
  if (q.isError) {
    return <RecordNotFoundPage title={t('tickets.edit')} />;
  }
  return (
    <Page title={title} width="medium" breadcrumbs={<DeskCrumbs db={db} set="tickets" current={title} />}>
      {values === null ? (
        <Placeholder size="large" />
      ) : (
        <TicketForm
          db={db}
          values={values}
          original={q.data}
          onChange={(patch) => setValues((v) => ({ ...(v ?? {}), ...patch }))}
          onSubmit={() => {
            if (!String(values.content ?? '').trim()) {
              setError(clientValidationError({ content: ["can't be blank"] }));
              return;
            }
            save.mutate();
          }}
          onCancel={() => navigate(paths.show(db, 'tickets', id))}
          saving={save.isPending}
          error={error}
          onDismissError={() => setError(null)}
        />
      )}
    </Page>
  );
}
