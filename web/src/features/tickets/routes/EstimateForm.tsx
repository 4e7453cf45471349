// estimates#new and #edit: description, customer, ticket, validity, the
// observation when the Group shows it, and the lines with live totals.
// ?ticket=tik-… (from a ticket) pre-fills the ticket and its customer. A
// decided estimate cannot be edited: the screen says so instead of a form.

import { Alert, Button, Card, Flex, Grid, Placeholder, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CheckedForm } from '../../../components/records/CheckedForm';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { RecordPicker } from '../../../components/records/RecordPicker';
import { isEnabled, useAccountConfig } from '../../../lib/account-config';
import type { FieldErrors } from '../../../lib/errors';
import { decided, type EstimateItem } from '../api/servicedocs';
import { ticketQuery } from '../api/tickets';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { EstimateItemsEditor, emptyItem } from '../components/EstimateItemsEditor';
import { useGroupCurrency } from '../../../lib/money';
import { useRecordEditor } from '../components/useRecordEditor';
import { RecordNotFoundPage } from '../../../components/records/RecordNotFound';

const FIELDS = ['description', 'customer_id', 'ticket_id', 'valid_until', 'observation', 'items', 'state'];

/** checkEstimate finds what the server would refuse, keyed as the server keys it. */
export function checkEstimate(v: Record<string, unknown>): FieldErrors {
  const errs: FieldErrors = {};
  const blank = "can't be blank";
  if (!String(v.description ?? '').trim()) errs.description = [blank];
  if (!v.customer_id) errs.customer_id = [blank];
  const items = (v.items ?? []) as EstimateItem[];
  if (items.length === 0) errs.items = [blank];
  items.forEach((it, i) => {
    if (!it.description.trim()) errs[`items[${i}].description`] = [blank];
    if (it.quantity === null || !Number.isInteger(it.quantity) || it.quantity < 1) errs[`items[${i}].quantity`] = ['must be greater than or equal to 1'];
    if (it.value === null) errs[`items[${i}].value`] = [blank];
    else if (Number.isNaN(it.value)) errs[`items[${i}].value`] = ['is not a number'];
    else if (it.value < 0) errs[`items[${i}].value`] = ['must be greater than or equal to 0'];
  });
  return errs;
}

export function Component() {
  const { t } = useTranslation();
  const [sp] = useSearchParams();
  const fromTicket = sp.get('ticket');
  const ed = useRecordEditor('estimates', 'Estimate', { state: 'draft', items: [emptyItem()], ticket_id: fromTicket || null });
  const currency = useGroupCurrency(ed.db);
  const ticket = useQuery({ ...ticketQuery(ed.db, fromTicket ?? ''), enabled: !!fromTicket && !ed.editing });
  const cfg = useAccountConfig(ed.db);
  const fieldError = useFieldError(ed.error);
  const v = ed.values;
  const { set } = ed;
  useEffect(() => {
    if (ticket.data?.customer_id && v && !v.customer_id) set({ customer_id: ticket.data.customer_id });
  }, [ticket.data, v, set]);
  const title = ed.editing ? (v?.number ? t('docs.estimates.editN', { n: v.number }) : t('docs.estimates.edit')) : t('docs.estimates.new');
  if (ed.notFound) {
    return <RecordNotFoundPage title={title} />;
  }
  const str = (name: string) => (typeof v?.[name] === 'string' ? (v[name] as string) : '');
  const showObservation = isEnabled(cfg['estimate-observation']) || !!str('observation');
  return (
    <Page title={title} width="wide" breadcrumbs={<DeskCrumbs db={ed.db} set="estimates" current={title} />}>
      <Card variation="outlined">
        {v === null ? (
          <Placeholder size="large" />
        ) : ed.editing && decided(str('state')) ? (
          <Alert variation="info" data-testid="estimate-locked">
            {t('docs.estimates.locked')}
          </Alert>
        ) : (
          <CheckedForm label={title} saving={ed.saving} check={() => checkEstimate(v)} onInvalid={ed.setError} onValid={ed.save}>
            <Flex direction="column" gap="medium">
              <ErrorAlert error={ed.error} onDismiss={() => ed.setError(null)} showFields={!!ed.error && Object.keys(ed.error.fields).some((f) => !FIELDS.includes(f) && !f.startsWith('items['))} />
              <TextAreaField
                label={t('fields.description')}
                name="description"
                rows={3}
                isRequired
                value={str('description')}
                onChange={(e) => set({ description: e.target.value })}
                {...errorOf(fieldError('description'))}
              />
              <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
                <RecordPicker db={ed.db} klass="Customer" label={t('fields.customer_id')} name="customer_id" detailField="email" value={(v.customer_id as string | null) ?? null} onChange={(id) => set({ customer_id: id })} error={fieldError('customer_id')} />
                <RecordPicker db={ed.db} klass="Ticket" labelField="title" label={t('fields.ticket_id')} name="ticket_id" value={(v.ticket_id as string | null) ?? null} onChange={(id) => set({ ticket_id: id })} error={fieldError('ticket_id')} />
                <TextField label={t('fields.valid_until')} name="valid_until" type="date" value={str('valid_until')} onChange={(e) => set({ valid_until: e.target.value || null })} hasError={!!fieldError('valid_until')} errorMessage={fieldError('valid_until')} />
              </Grid>
              <EstimateItemsEditor currency={currency} items={(v.items ?? []) as EstimateItem[]} onChange={(items) => set({ items })} fieldError={fieldError} />
              {showObservation ? (
                <TextAreaField label={t('fields.observation')} name="observation" rows={3} value={str('observation')} onChange={(e) => set({ observation: e.target.value })} hasError={!!fieldError('observation')} errorMessage={fieldError('observation')} />
              ) : null}
              <Flex gap="small" justifyContent="flex-end">
                <Button type="button" onClick={ed.cancel} isDisabled={ed.saving}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" variation="primary" isLoading={ed.saving} loadingText={t('common.saving')} data-testid="save-estimate">
                  {t('common.save')}
                </Button>
              </Flex>
            </Flex>
          </CheckedForm>
        )}
      </Card>
    </Page>
  );
}
