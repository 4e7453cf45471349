// How the statement is read: what the server detected (or the wallet's saved
// profile), each choice editable; every change runs the live check again.

import { Badge, Button, CheckboxField, Flex, Grid, Heading, SelectField, StepperField, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';
import { COLUMN_FIELDS, DATE_FORMATS, type CheckResult, type ColumnField, type Overrides } from '../api/import';

const DELIMITERS = [',', ';', '\t', '|'] as const;

export function UploadOptions({
  check,
  onChange,
  fieldError,
}: {
  check: CheckResult;
  onChange: (o: Overrides) => void;
  fieldError: (field: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const o = check.options;
  const set = (options: Overrides['options']) => onChange({ options });
  const setColumn = (field: ColumnField, v: number) => onChange({ columns: { [field]: v } });
  const headerName = (h: string, i: number) => (h.startsWith('Column ') ? t('finance.upload.columnN', { n: i + 1 }) : h);
  const matched = COLUMN_FIELDS.filter((f) => o.columns[f] >= 0).length;

  return (
    <section className="upload-panel" aria-labelledby="upload-options-title">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small">
        <Heading level={3} id="upload-options-title">
          {t('finance.upload.howToRead')}
        </Heading>
        <Flex gap="xs" alignItems="center" wrap="wrap">
          {check.from_profile ? (
            <Badge variation="info" data-testid="upload-from-profile">
              {t('finance.upload.fromProfile')}
            </Badge>
          ) : null}
          <Button size="small" onClick={() => onChange({ detect: true })} data-testid="upload-detect">
            <AppIcon name="search" /> {t('finance.upload.detectAgain')}
          </Button>
        </Flex>
      </Flex>
      <Grid templateColumns={{ base: '1fr', medium: '1fr 1fr 1fr' }} gap="small" marginTop="small" alignItems="start">
        <SelectField label={t('finance.upload.encoding')} value={o.encoding} onChange={(e) => set({ encoding: e.target.value as 'utf-8' })} errorMessage={fieldError('encoding')} hasError={!!fieldError('encoding')}>
          <option value="utf-8">UTF-8</option>
          <option value="windows-1252">ISO-8859-1 / Windows-1252</option>
        </SelectField>
        <SelectField label={t('finance.upload.delimiter')} value={o.delimiter} onChange={(e) => set({ delimiter: e.target.value })}>
          {DELIMITERS.map((d) => (
            <option key={d} value={d}>
              {t(`finance.upload.delimiters.${d === '\t' ? 'tab' : d === ',' ? 'comma' : d === ';' ? 'semicolon' : 'pipe'}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('finance.upload.decimal')} value={o.decimal} onChange={(e) => set({ decimal: e.target.value as ',' })}>
          <option value=",">{t('finance.upload.decimalComma')}</option>
          <option value=".">{t('finance.upload.decimalPoint')}</option>
        </SelectField>
        <SelectField
          label={t('finance.upload.dateFormat')}
          value={o.date_format}
          onChange={(e) => set({ date_format: e.target.value })}
          errorMessage={fieldError('date_format')}
          hasError={!!fieldError('date_format')}
          name="date_format"
          placeholder={o.date_format === '' ? t('finance.upload.chooseDateFormat') : undefined}
        >
          {DATE_FORMATS.map((f) => (
            <option key={f} value={f}>
              {t(`finance.upload.dateFormats.${f}`, { defaultValue: f })}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('finance.upload.mostItemsAre')} descriptiveText={t('finance.upload.mostItemsAreHint')} value={o.most_items_are} onChange={(e) => set({ most_items_are: e.target.value as 'income' })}>
          <option value="income">{t('finance.upload.signed')}</option>
          <option value="outgo">{t('finance.upload.positiveAreOutgos')}</option>
        </SelectField>
        <StepperField
          label={t('finance.upload.skip')}
          descriptiveText={t('finance.upload.skipHint')}
          min={0}
          max={100}
          step={1}
          value={o.skip}
          onStepChange={(n) => set({ skip: n })}
        />
      </Grid>
      <Flex gap="large" wrap="wrap" marginTop="small">
        <CheckboxField
          label={t('finance.upload.firstLineIsHeader')}
          name="first_line_is_header"
          checked={o.first_line_is_header}
          onChange={(e) => set({ first_line_is_header: e.target.checked })}
        />
        <CheckboxField label={t('finance.upload.ignoreLineOne')} name="ignore_line_one" checked={o.skip > 0} onChange={(e) => set({ skip: e.target.checked ? 1 : 0 })} />
      </Flex>

      <Heading level={4} marginTop="medium">
        {t('finance.upload.columns')}
      </Heading>
      <Text fontSize="small" variation={matched < 3 ? 'error' : 'secondary'} data-testid="upload-matched">
        {t('finance.upload.matched', { count: matched })}
      </Text>
      <Grid templateColumns={{ base: '1fr 1fr', medium: 'repeat(4, 1fr)' }} gap="small" marginTop="xs">
        {COLUMN_FIELDS.map((f) => (
          <SelectField
            key={f}
            label={t(`finance.upload.fields.${f}`)}
            value={String(o.columns[f])}
            onChange={(e) => setColumn(f, Number(e.target.value))}
            errorMessage={f === 'date' ? fieldError('columns') : undefined}
            hasError={f === 'date' && !!fieldError('columns')}
            data-testid={`upload-col-${f}`}
          >
            <option value="-1">{t('finance.upload.noColumn')}</option>
            {check.headers.map((h, i) => (
              <option key={i} value={i}>
                {headerName(h, i)}
              </option>
            ))}
          </SelectField>
        ))}
      </Grid>
    </section>
  );
}
