// categories#new and #edit: name, label, a colour with a live preview of the
// chip, active, and the checklist (one item per line) with its lines counted
// as the server will keep them.

import { Button, Card, Flex, Placeholder, SwitchField, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, useFieldError } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { clientValidationError } from '../../../lib/errors';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { useRecordEditor } from '../components/useRecordEditor';
import { RecordNotFoundPage } from '../../../components/records/RecordNotFound';

const FIELDS = ['name', 'label', 'color', 'active', 'checklist'];
export const PALETTE = ['#64748b', '#ef4444', '#f97316', '#eab308', '#22c55e', '#14b8a6', '#3b82f6', '#8b5cf6', '#ec4899'];

/** checklistLines: the lines the server keeps (trimmed, blank lines dropped). */
export function checklistLines(s: unknown): string[] {
  return typeof s === 'string' ? s.split(/\r?\n/).map((l) => l.trim()).filter(Boolean) : [];
}

export function Component() {
  const { t } = useTranslation();
  const ed = useRecordEditor('categories', 'Category', { color: PALETTE[0], active: true });
  const fieldError = useFieldError(ed.error);
  const title = ed.editing ? t('tickets.editCategory') : t('tickets.newCategory');
  if (ed.notFound) {
    return <RecordNotFoundPage title={title} />;
  }
  const v = ed.values;
  const color = typeof v?.color === 'string' && v.color ? v.color : PALETTE[0]!;
  const lines = checklistLines(v?.checklist);
  return (
    <Page title={title} width="medium" breadcrumbs={<DeskCrumbs db={ed.db} set="categories" current={title} />}>
      <Card variation="outlined">
        {v === null ? (
          <Placeholder size="large" />
        ) : (
          <form
            noValidate
            data-testid="record-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (!String(v.name ?? '').trim()) {
                ed.setError(clientValidationError({ name: ["can't be blank"] }));
                return;
              }
              ed.save();
            }}
          >
            <Flex direction="column" gap="medium">
              <ErrorAlert error={ed.error} onDismiss={() => ed.setError(null)} showFields={!!ed.error && Object.keys(ed.error.fields).some((f) => !FIELDS.includes(f))} />
              <TextField label={t('fields.name')} name="name" isRequired value={String(v.name ?? '')} onChange={(e) => ed.set({ name: e.target.value })} hasError={!!fieldError('name')} errorMessage={fieldError('name')} />
              <TextField label={t('fields.label')} name="label" value={String(v.label ?? '')} onChange={(e) => ed.set({ label: e.target.value })} hasError={!!fieldError('label')} errorMessage={fieldError('label')} />
              <Flex direction="column" gap="xs">
                <Text as="span" fontWeight="bold" fontSize="small" id="color-label">
                  {t('fields.color')}
                </Text>
                <Flex gap="xs" wrap="wrap" alignItems="center" role="radiogroup" aria-labelledby="color-label">
                  {PALETTE.map((c) => (
                    <button
                      key={c}
                      type="button"
                      role="radio"
                      aria-checked={c === color}
                      aria-label={c}
                      className={`swatch${c === color ? ' swatch--on' : ''}`}
                      style={{ background: c }}
                      onClick={() => ed.set({ color: c })}
                    />
                  ))}
                  <input type="color" aria-label={t('tickets.customColor')} value={color} onChange={(e) => ed.set({ color: e.target.value })} data-testid="color-input" />
                  <span className="category-chip" data-testid="category-preview">
                    <span className="category-chip__dot" style={{ background: color }} aria-hidden="true" />
                    {String(v.name ?? '') || t('tickets.preview')}
                  </span>
                </Flex>
                {fieldError('color') ? <Text variation="error" fontSize="small">{fieldError('color')}</Text> : null}
              </Flex>
              <SwitchField label={t('fields.active')} name="active" isChecked={v.active !== false} onChange={(e) => ed.set({ active: e.target.checked })} />
              <TextAreaField
                label={t('fields.checklist')}
                descriptiveText={t('tickets.checklistHint', { count: lines.length })}
                name="checklist"
                rows={6}
                value={String(v.checklist ?? '')}
                onChange={(e) => ed.set({ checklist: e.target.value })}
                hasError={!!fieldError('checklist')}
                errorMessage={fieldError('checklist')}
              />
              <Flex gap="small" justifyContent="flex-end">
                <Button type="button" onClick={ed.cancel} isDisabled={ed.saving}>
                  {t('common.cancel')}
                </Button>
                <Button type="submit" variation="primary" isLoading={ed.saving} loadingText={t('common.saving')} data-testid="save-category">
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
