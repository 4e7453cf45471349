// maintenances#new and #edit. ?ticket=tik-… (from a done ticket) pre-fills
// the ticket, its equipment and category, and today's date. The warranty
// end is shown as it will be computed.

import { Button, Card, Flex, Grid, Placeholder, Text, TextField } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ErrorAlert, useFieldError } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { RecordPicker } from '../../../components/records/RecordPicker';
import { clientValidationError, type FieldErrors } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { ticketQuery } from '../api/tickets';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { useRecordEditor } from '../components/useRecordEditor';
import { RecordNotFoundPage } from '../../../components/records/RecordNotFound';

const FIELDS = ['date', 'next_maintenance', 'category_id', 'equipment_id', 'warranty', 'ticket_id'];

/** warrantyUntil mirrors the server: date + warranty days, or "" without both. */
export function warrantyUntil(date: unknown, days: unknown): string {
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date) || typeof days !== 'number' || !(days > 0)) return '';
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const today = () => new Date().toISOString().slice(0, 10);

export function Component() {
  const { t, i18n } = useTranslation();
  const [sp] = useSearchParams();
  const fromTicket = sp.get('ticket');
  const ed = useRecordEditor('maintenances', 'Maintenance', { date: today(), ticket_id: fromTicket || null, equipment_id: sp.get('equipment') || null });
  const ticket = useQuery({ ...ticketQuery(ed.db, fromTicket ?? ''), enabled: !!fromTicket && !ed.editing });
  const fieldError = useFieldError(ed.error);
  const v = ed.values;
  const { set } = ed;
  useEffect(() => {
    const tk = ticket.data;
    if (tk && v && !v.equipment_id && !v.category_id) set({ equipment_id: tk.equipment_id ?? null, category_id: tk.category_id ?? null });
  }, [ticket.data, v, set]);
  const title = ed.editing ? t('docs.maintenances.edit') : t('docs.maintenances.new');
  if (ed.notFound) {
    return <RecordNotFoundPage title={title} />;
  }
  const str = (name: string) => (typeof v?.[name] === 'string' ? (v[name] as string) : '');
  const until = warrantyUntil(v?.date, v?.warranty);
  return (
    <Page title={title} width="medium" breadcrumbs={<DeskCrumbs db={ed.db} set="maintenances" current={title} />}>
      <Card variation="outlined">
        {v === null ? (
          <Placeholder size="large" />
        ) : (
          <form
            noValidate
            data-testid="record-form"
            onSubmit={(e) => {
              e.preventDefault();
              const errs: FieldErrors = {};
              if (!str('date')) errs.date = ["can't be blank"];
              if (!v.equipment_id) errs.equipment_id = ["can't be blank"];
              const w = v.warranty;
              if (w !== undefined && w !== null && (typeof w !== 'number' || !Number.isInteger(w) || w < 0)) errs.warranty = ['must be greater than or equal to 0'];
              if (Object.keys(errs).length) {
                ed.setError(clientValidationError(errs));
                return;
              }
              ed.save();
            }}
          >
            <Flex direction="column" gap="medium">
              <ErrorAlert error={ed.error} onDismiss={() => ed.setError(null)} showFields={!!ed.error && Object.keys(ed.error.fields).some((f) => !FIELDS.includes(f))} />
              <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
                <TextField label={t('fields.date')} name="date" type="date" isRequired value={str('date')} onChange={(e) => set({ date: e.target.value })} hasError={!!fieldError('date')} errorMessage={fieldError('date')} />
                <TextField label={t('fields.next_maintenance')} name="next_maintenance" type="date" value={str('next_maintenance')} onChange={(e) => set({ next_maintenance: e.target.value || null })} hasError={!!fieldError('next_maintenance')} errorMessage={fieldError('next_maintenance')} />
                <RecordPicker db={ed.db} klass="Equipment" labelField="identifier" detailField="maker" label={t('fields.equipment_id')} name="equipment_id" value={(v.equipment_id as string | null) ?? null} onChange={(id) => set({ equipment_id: id })} error={fieldError('equipment_id')} />
                <RecordPicker db={ed.db} klass="Category" label={t('fields.category_id')} name="category_id" value={(v.category_id as string | null) ?? null} onChange={(id) => set({ category_id: id })} error={fieldError('category_id')} />
                <TextField
                  label={t('fields.warranty')}
                  descriptiveText={t('docs.maintenances.warrantyHint')}
                  name="warranty"
                  type="number"
                  min={0}
                  value={typeof v.warranty === 'number' ? String(v.warranty) : ''}
                  onChange={(e) => set({ warranty: e.target.value === '' ? null : Number(e.target.value) })}
                  hasError={!!fieldError('warranty')}
                  errorMessage={fieldError('warranty')}
                />
                <RecordPicker db={ed.db} klass="Ticket" labelField="title" label={t('fields.ticket_id')} name="ticket_id" value={(v.ticket_id as string | null) ?? null} onChange={(id) => set({ ticket_id: id })} error={fieldError('ticket_id')} />
              </Grid>
              {until ? (
                <Text fontSize="small" data-testid="warranty-preview">
                  {t('docs.maintenances.warrantyUntil', { date: formatDate(until, i18n.language) })}
                </Text>
              ) : null}
              <Flex gap="small" justifyContent="flex-end">
                <Button type="button" onClick={ed.cancel} isDisabled={ed.saving}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" variation="primary" isLoading={ed.saving} loadingText={t('common.saving')} data-testid="save-maintenance">
                  {t('common.save')}
                </Button>
              </Flex>
            </Flex>
          </form>
        )}
      </Card>
    </Page>
  );
}
