// The ticket form (new and edit): the problem first, the title following it
// live; customer with "create customer", equipment of that customer,
// category with its colour, technician and reviewer among the Group's
// members; status limited to the moves the matrix allows. Field errors show
// under their fields; Ctrl+Enter saves.

import { Button, CheckboxField, Flex, Grid, SelectField, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { RecordPicker } from '../../../components/records/RecordPicker';
import { useAutofocus } from '../../../components/records/useAutofocus';
import type { ApiError } from '../../../lib/errors';
import { categoriesQuery } from '../api/customers';
import { ticketTitle } from '../api/title';
import { KINDS, PRIORITIES, STATUSES, canMove, type Ticket } from '../api/types';
import { CustomerQuickAdd } from './CustomerQuickAdd';
import { PeopleOptions, usePeople } from './People';

export type TicketValues = Partial<Ticket> & { checklist_replace?: boolean };

const FORM_FIELDS = ['content', 'customer_id', 'equipment_id', 'category_id', 'priority', 'ticket_kind', 'status', 'technical_id', 'reviewer_id', 'estimation', 'equipment_observation', 'relate_equipment_to_customer'];

export function TicketForm({
  db,
  values,
  original,
  onChange,
  onSubmit,
  onCancel,
  saving,
  error,
  onDismissError,
}: {
  db: string;
  values: TicketValues;
  /** The stored ticket when editing: limits the status choices. */
  original?: Ticket | undefined;
  onChange: (patch: TicketValues) => void;
  onSubmit: () => void;
  onCancel: () => void;
  saving: boolean;
  error: ApiError | null;
  onDismissError: () => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLFormElement>(null);
  useAutofocus(ref, false);
  const fieldError = useFieldError(error);
  const cats = useQuery(categoriesQuery(db));
  const people = usePeople(db);
  const [adding, setAdding] = useState(false);
  const title = ticketTitle(values.content);
  const category = cats.data?.find((c) => c._id === values.category_id);
  const categoryChanged = !!original && (original.category_id ?? '') !== (values.category_id ?? '') && !!values.category_id;
  const otherErrors = !!error && Object.keys(error.fields).some((f) => !FORM_FIELDS.includes(f));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!saving) onSubmit();
  };
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const member = (name: 'technical_id' | 'reviewer_id') => (
    <SelectField
      label={t(`fields.${name}`)}
      name={name}
      value={str(values[name])}
      onChange={(e) => onChange({ [name]: e.target.value || null })}
      {...errorOf(fieldError(name))}
    >
      <option value="">{t('tickets.nobody')}</option>
      <PeopleOptions people={people} selected={str(values[name])} />
    </SelectField>
  );

  return (
    <form
      ref={ref}
      onSubmit={submit}
      noValidate
      data-testid="ticket-form"
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          if (!saving) onSubmit();
        }
      }}
    >
      <Flex direction="column" gap="medium">
        <ErrorAlert error={error} onDismiss={onDismissError} showFields={otherErrors} />
        <TextAreaField
          label={t('tickets.problem')}
          descriptiveText={t('tickets.problemHint')}
          name="content"
          rows={5}
          isRequired
          value={str(values.content)}
          onChange={(e) => onChange({ content: e.target.value })}
          {...errorOf(fieldError('content'))}
        />
        <Text fontSize="small" data-testid="title-preview">
          <strong>{t('fields.title')}:</strong> {title || <span className="muted">{t('tickets.titleFollows')}</span>}
        </Text>
        <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="medium">
          <Flex direction="column" gap="xxs">
            <RecordPicker
              db={db}
              klass="Customer"
              label={t('fields.customer_id')}
              name="customer_id"
              detailField="email"
              value={values.customer_id ?? null}
              onChange={(id) => onChange({ customer_id: id, ...(id !== values.customer_id ? { equipment_id: null } : {}) })}
              error={fieldError('customer_id')}
            />
            <Button size="small" variation="link" alignSelf="flex-start" type="button" onClick={() => setAdding(true)} data-testid="create-customer">
              {t('tickets.createCustomer')}
            </Button>
          </Flex>
          <RecordPicker
            db={db}
            klass="Equipment"
            labelField="identifier"
            detailField="maker"
            filter={values.customer_id ? { customer_id: values.customer_id } : undefined}
            label={t('fields.equipment_id')}
            name="equipment_id"
            value={values.equipment_id ?? null}
            onChange={(id) => onChange({ equipment_id: id })}
            error={fieldError('equipment_id')}
          />
          <Flex direction="column" gap="xxs">
            <SelectField
              label={t('fields.category_id')}
              name="category_id"
              value={str(values.category_id)}
              onChange={(e) => onChange({ category_id: e.target.value || null })}
              {...errorOf(fieldError('category_id'))}
            >
              <option value="">{t('tickets.noCategory')}</option>
              {(cats.data ?? []).filter((c) => c.active !== false || c._id === values.category_id).map((c) => (
                <option key={c._id} value={c._id}>
                  {c.name}
                </option>
              ))}
            </SelectField>
            {category ? (
              <span className="category-chip" data-testid="category-preview">
                <span className="category-chip__dot" style={{ background: category.color || '#64748b' }} aria-hidden="true" />
                {category.name}
              </span>
            ) : null}
            {categoryChanged ? (
              <CheckboxField
                name="checklist_replace"
                label={t('tickets.replaceChecklist')}
                value="yes"
                checked={values.checklist_replace === true}
                onChange={(e) => onChange({ checklist_replace: e.target.checked })}
              />
            ) : null}
          </Flex>
          <SelectField label={t('fields.priority')} name="priority" value={str(values.priority) || 'medium'} onChange={(e) => onChange({ priority: e.target.value as Ticket['priority'] })} hasError={!!fieldError('priority')} errorMessage={fieldError('priority')}>
            {PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {t(`enums.priority.${p}`)}
              </option>
            ))}
          </SelectField>
          <SelectField label={t('fields.ticket_kind')} name="ticket_kind" value={str(values.ticket_kind) || 'bug'} onChange={(e) => onChange({ ticket_kind: e.target.value })} hasError={!!fieldError('ticket_kind')} errorMessage={fieldError('ticket_kind')}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`enums.ticket_kind.${k}`)}
              </option>
            ))}
          </SelectField>
          {original ? (
            <SelectField label={t('fields.status')} name="status" value={str(values.status) || 'open'} onChange={(e) => onChange({ status: e.target.value as Ticket['status'] })} hasError={!!fieldError('status')} errorMessage={fieldError('status')}>
              {STATUSES.filter((s) => canMove(original.status, s)).map((s) => (
                <option key={s} value={s}>
                  {t(`enums.status.${s}`)}
                </option>
              ))}
            </SelectField>
          ) : null}
          {member('technical_id')}
          {member('reviewer_id')}
          <TextField label={t('fields.estimation')} name="estimation" type="date" value={str(values.estimation)} onChange={(e) => onChange({ estimation: e.target.value || undefined })} hasError={!!fieldError('estimation')} errorMessage={fieldError('estimation')} />
        </Grid>
        {values.customer_id && values.equipment_id ? (
          <CheckboxField
            name="relate_equipment_to_customer"
            label={t('fields.relate_equipment_to_customer')}
            value="yes"
            checked={values.relate_equipment_to_customer === true}
            onChange={(e) => onChange({ relate_equipment_to_customer: e.target.checked })}
          />
        ) : null}
        <TextAreaField
          label={t('fields.equipment_observation')}
          name="equipment_observation"
          rows={3}
          value={str(values.equipment_observation)}
          onChange={(e) => onChange({ equipment_observation: e.target.value })}
          {...errorOf(fieldError('equipment_observation'))}
        />
        <Flex gap="small" justifyContent="flex-end" wrap="wrap">
          <Text variation="tertiary" fontSize="small" alignSelf="center">
            {t('tickets.saveShortcut')}
          </Text>
          <Button type="button" onClick={onCancel} isDisabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variation="primary" isLoading={saving} loadingText={t('common.saving')} data-testid="save-ticket">
            {t('common.save')}
          </Button>
        </Flex>
      </Flex>
      <CustomerQuickAdd
        db={db}
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={(id) => {
          setAdding(false);
          onChange({ customer_id: id, equipment_id: null });
        }}
      />
    </form>
  );
}
