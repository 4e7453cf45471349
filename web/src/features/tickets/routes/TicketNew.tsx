// tickets#new: the ticket form; a customer or equipment can be passed in the
// URL (?customer=…&equipment=…) from their show screens.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ownWrite, refetchOwnWrite } from '../../../lib/live-deps';
import { Page } from '../../../components/Page';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { saveTicket, ticketQuery } from '../api/tickets';
import type { Ticket } from '../api/types';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { TicketForm, type TicketValues } from '../components/TicketForm';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  const [sp] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [values, setValues] = useState<TicketValues>({
    priority: 'medium',
    ticket_kind: 'bug',
    customer_id: sp.get('customer') || null,
    equipment_id: sp.get('equipment') || null,
  });
  const [error, setError] = useState<ApiError | null>(null);
  const save = useMutation({
    mutationFn: () => saveTicket(db, clean(values)),
    onSuccess: async (res) => {
      // What the new ticket changes (lists, board, counter), not every ticket query of the form's page.
      await refetchOwnWrite(qc, ownWrite(db, res.id, 'Ticket', false, res.rev), undefined, res.doc);
      // The ticket's screen opens on the ticket as stored; only its panels read.
      if (res.doc) qc.setQueryData(ticketQuery(db, res.id).queryKey, res.doc as Ticket);
      navigate(paths.show(db, 'tickets', res.id));
    },
    onError: (e) => setError(asApiError(e)),
  });
  return (
    <Page title={t('tickets.new')} width="medium" breadcrumbs={<DeskCrumbs db={db} set="tickets" current={t('records.new')} />}>
      <TicketForm
        db={db}
        values={values}
        onChange={(patch) => setValues((v) => ({ ...v, ...patch }))}
        onSubmit={() => {
          if (!String(values.content ?? '').trim()) {
            setError(clientValidationError({ content: ["can't be blank"] }));
            return;
          }
          save.mutate();
        }}
        onCancel={() => navigate(paths.index(db, 'tickets'))}
        saving={save.isPending}
        error={error}
        onDismissError={() => setError(null)}
      />
    </Page>
  );
}

/** clean drops empty optional references so the server sees no field rather than "". */
export function clean(v: TicketValues): TicketValues {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) {
    if (val === null || val === undefined || val === '') continue;
    out[k] = val;
  }
  return out as TicketValues;
}
