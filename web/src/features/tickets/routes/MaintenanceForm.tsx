// maintenances#new and #edit. ?ticket=tik-… (from a done ticket) pre-fills
// the ticket, its equipment and category, and today's date. The warranty
// end is shown as it will be computed.

import { Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DeclaredForm, type FormDeclaration } from '../../../components/records/DeclaredForm';
import { formatDate } from '../../../lib/format';
import { ticketQuery } from '../api/tickets';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { useRecordEditor } from '../components/useRecordEditor';

/** warrantyUntil mirrors the server: date + warranty days, or "" without both. */
export function warrantyUntil(date: unknown, days: unknown): string {
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date) || typeof days !== 'number' || !(days > 0)) return '';
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const today = () => new Date().toISOString().slice(0, 10);

export const MAINTENANCE_FORM: FormDeclaration = {
  klass: 'Maintenance',
  saveTestId: 'save-maintenance',
  columns: 2,
  fields: [
    { name: 'date', type: 'date' },
    { name: 'next_maintenance', type: 'date' },
    { name: 'equipment_id', type: 'ref', ref: 'Equipment', refLabel: 'identifier', refDetail: 'maker' },
    { name: 'category_id', type: 'ref', ref: 'Category' },
    { name: 'warranty', type: 'number', min: 0, hint: 'docs.maintenances.warrantyHint' },
    { name: 'ticket_id', type: 'ref', ref: 'Ticket', refLabel: 'title' },
  ],
};

export function Component() {
  const { t, i18n } = useTranslation();
  const [sp] = useSearchParams();
  const fromTicket = sp.get('ticket');
  const ed = useRecordEditor('maintenances', 'Maintenance', { date: today(), ticket_id: fromTicket || null, equipment_id: sp.get('equipment') || null });
  const ticket = useQuery({ ...ticketQuery(ed.db, fromTicket ?? ''), enabled: !!fromTicket && !ed.editing });
  const v = ed.values;
  const { set } = ed;
  useEffect(() => {
    const tk = ticket.data;
    if (tk && v && !v.equipment_id && !v.category_id) set({ equipment_id: tk.equipment_id ?? null, category_id: tk.category_id ?? null });
  }, [ticket.data, v, set]);
  const title = ed.editing ? t('docs.maintenances.edit') : t('docs.maintenances.new');
  const until = warrantyUntil(v?.date, v?.warranty);
  return (
    <DeclaredForm form={MAINTENANCE_FORM} ed={ed} title={title} breadcrumbs={<DeskCrumbs db={ed.db} set="maintenances" current={title} />}>
      {until ? (
        <Text fontSize="small" data-testid="warranty-preview">
          {t('docs.maintenances.warrantyUntil', { date: formatDate(until, i18n.language) })}
        </Text>
      ) : null}
    </DeclaredForm>
  );
}
