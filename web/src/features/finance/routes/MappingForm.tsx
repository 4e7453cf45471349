// mappings#new and #edit: the rule's parts (what it applies to, the field
// it watches and how, the text to match, the change and its text, its
// order, active), the rule read back in words as it is typed, and the
// server's preview over the last imported records. Ctrl+Enter saves.

import { Card, Flex, Grid, Placeholder, SelectField, SwitchField, Text, TextField } from '@aws-amplify/ui-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckedForm, FormActions } from '../../../components/records/CheckedForm';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { useAutofocus } from '../../../components/records/useAutofocus';
import { useRecordEditor } from '../../../components/records/useRecordEditor';
import { checkMapping } from '../checks';
import { ruleInWords } from '../mapping-words';
import { MAPPING_CHANGES, MAPPING_FIELDS, MAPPING_TARGETS, MAPPING_WATCHES, SCOPE, type Mapping } from '../api/types';
import { FinanceCrumbs } from '../components/FinanceCrumbs';
import { MappingPreview } from '../components/MappingPreview';
import { RecordNotFoundPage } from '../../../components/records/RecordNotFound';

const FIELDS = ['description', 'active', 'order', 'target', 'field_to_watch', 'kind_of_watch', 'text_to_match', 'kind_of_change', 'field_to_change', 'text_to_change'];

const INITIAL = { active: true, target: 'outgo', field_to_watch: 'description', kind_of_watch: 'contains', kind_of_change: 'replace', field_to_change: 'categories', text_to_match: '', text_to_change: '' };

export function Component() {
  const { t } = useTranslation();
  const ed = useRecordEditor('mappings', 'Mapping', INITIAL, { scope: SCOPE });
  const fieldError = useFieldError(ed.error);
  const formRef = useRef<HTMLFormElement>(null);
  const v = ed.values;
  useAutofocus(formRef, v === null);
  const title = ed.editing ? t('finance.mappings.edit') : t('finance.mappings.new');
  if (ed.notFound) {
    return <RecordNotFoundPage title={title} />;
  }
  const str = (name: string) => (typeof v?.[name] === 'string' ? (v[name] as string) : '');
  const select = (name: string, options: readonly string[], enumName: string) => (
    <SelectField
      label={t(`fields.${name}`)}
      name={name}
      isRequired
      value={str(name)}
      onChange={(e) => ed.set({ [name]: e.target.value })}
      {...errorOf(fieldError(name))}
    >
      {options.map((o) => (
        <option key={o} value={o}>
          {t(`enums.${enumName}.${o}`)}
        </option>
      ))}
    </SelectField>
  );
  return (
    <Page title={title} width="wide" breadcrumbs={<FinanceCrumbs db={ed.db} set="mappings" current={title} />}>
      {v === null ? (
        <Card variation="outlined">
          <Placeholder size="large" />
        </Card>
      ) : (
        <Grid templateColumns={{ base: '1fr', large: '1fr 1fr' }} gap="medium">
          <Card variation="outlined">
            <CheckedForm
              ref={formRef}
              label={title}
              saving={ed.saving}
              check={() => checkMapping(v)}
              onInvalid={ed.setError}
              onValid={ed.save}
            >
              <Flex direction="column" gap="medium">
                <ErrorAlert error={ed.error} onDismiss={() => ed.setError(null)} showFields={!!ed.error && Object.keys(ed.error.fields).some((f) => !FIELDS.includes(f))} />
                <TextField label={t('fields.description')} name="description" isRequired value={str('description')} onChange={(e) => ed.set({ description: e.target.value })} hasError={!!fieldError('description')} errorMessage={fieldError('description')} />
                {select('target', MAPPING_TARGETS, 'target')}
                <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="small">
                  {select('field_to_watch', MAPPING_FIELDS, 'mapping_field')}
                  {select('kind_of_watch', MAPPING_WATCHES, 'kind_of_watch')}
                </Grid>
                <TextField label={t('fields.text_to_match')} name="text_to_match" isRequired value={str('text_to_match')} onChange={(e) => ed.set({ text_to_match: e.target.value })} descriptiveText={t('finance.mappings.matchHint')} hasError={!!fieldError('text_to_match')} errorMessage={fieldError('text_to_match')} />
                <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="small">
                  {select('kind_of_change', MAPPING_CHANGES, 'kind_of_change')}
                  {select('field_to_change', MAPPING_FIELDS, 'mapping_field')}
                </Grid>
                <TextField
                  label={t('fields.text_to_change')}
                  name="text_to_change"
                  value={str('text_to_change')}
                  onChange={(e) => ed.set({ text_to_change: e.target.value })}
                  descriptiveText={str('field_to_change') === 'categories' ? t('finance.form.categoriesHint') : undefined}
                  {...errorOf(fieldError('text_to_change'))}
                />
                <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr' }} gap="small" alignItems="end">
                  <TextField
                    label={t('fields.order')}
                    name="order"
                    type="number"
                    inputMode="numeric"
                    min={0}
                    step={1}
                    value={typeof v.order === 'number' ? String(v.order) : ''}
                    onChange={(e) => ed.set({ order: e.target.value === '' ? null : Number(e.target.value) })}
                    descriptiveText={t('finance.mappings.orderHint')}
                    {...errorOf(fieldError('order'))}
                  />
                  <SwitchField label={t('fields.active')} name="active" isChecked={v.active !== false} onChange={(e) => ed.set({ active: e.target.checked })} />
                </Grid>
                <Text className="rule-words" role="status" data-testid="rule-words">
                  {ruleInWords(v as Partial<Mapping>, t)}
                </Text>
                <FormActions saving={ed.saving} onCancel={ed.cancel} />
              </Flex>
            </CheckedForm>
          </Card>
          <Card variation="outlined">
            <MappingPreview db={ed.db} mapping={v as Partial<Mapping>} />
          </Card>
        </Grid>
      )}
    </Page>
  );
}
