// equipment#new and #edit: identifier, maker, description, location and the
// customer (picked by name; ?customer=… pre-fills it from the customer).

import { Button, Card, Flex, Placeholder, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ErrorAlert, useFieldError } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { RecordPicker } from '../../../components/records/RecordPicker';
import { clientValidationError } from '../../../lib/errors';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { useRecordEditor } from '../components/useRecordEditor';
import { RecordNotFoundPage } from '../../../components/records/RecordNotFound';

const FIELDS = ['identifier', 'maker', 'description', 'location', 'customer_id'];

export function Component() {
  const { t } = useTranslation();
  const [sp] = useSearchParams();
  const ed = useRecordEditor('equipment', 'Equipment', { customer_id: sp.get('customer') || null });
  const fieldError = useFieldError(ed.error);
  const title = ed.editing ? t('tickets.editEquipment') : t('tickets.newEquipment');
  if (ed.notFound) {
    return <RecordNotFoundPage title={title} />;
  }
  const v = ed.values;
  const text = (name: string, area = false) => {
    const common = {
      label: t(`fields.${name}`),
      name,
      value: typeof v?.[name] === 'string' ? (v[name] as string) : '',
      hasError: !!fieldError(name),
      errorMessage: fieldError(name),
      isRequired: name === 'identifier',
    };
    return area ? (
      <TextAreaField {...common} rows={4} onChange={(e) => ed.set({ [name]: e.target.value })} />
    ) : (
      <TextField {...common} onChange={(e) => ed.set({ [name]: e.target.value })} />
    );
  };
  return (
    <Page title={title} width="medium" breadcrumbs={<DeskCrumbs db={ed.db} set="equipment" current={title} />}>
      <Card variation="outlined">
        {v === null ? (
          <Placeholder size="large" />
        ) : (
          <form
            noValidate
            data-testid="record-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (!String(v.identifier ?? '').trim()) {
                ed.setError(clientValidationError({ identifier: ["can't be blank"] }));
                return;
              }
              ed.save();
            }}
          >
            <Flex direction="column" gap="medium">
              <ErrorAlert error={ed.error} onDismiss={() => ed.setError(null)} showFields={!!ed.error && Object.keys(ed.error.fields).some((f) => !FIELDS.includes(f))} />
              {text('identifier')}
              {text('maker')}
              <RecordPicker db={ed.db} klass="Customer" label={t('fields.customer_id')} name="customer_id" value={(v.customer_id as string | null) ?? null} onChange={(id) => ed.set({ customer_id: id })} error={fieldError('customer_id')} />
              {text('location')}
              {text('description', true)}
              <Flex gap="small" justifyContent="flex-end">
                <Button type="button" onClick={ed.cancel} isDisabled={ed.saving}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" variation="primary" isLoading={ed.saving} loadingText={t('common.saving')}>
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
