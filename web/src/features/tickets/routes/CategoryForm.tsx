// categories#new and #edit: name, label, a colour with a live preview of the
// chip, active, and the checklist (one item per line) with its lines counted
// as the server will keep them.

import { Flex, Text, TextAreaField } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { DeclaredForm, type FieldControl, type FormDeclaration } from '../../../components/records/DeclaredForm';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { useRecordEditor } from '../components/useRecordEditor';
import { errorOf } from '../../../components/ErrorAlert';

export const PALETTE = ['#64748b', '#ef4444', '#f97316', '#eab308', '#22c55e', '#14b8a6', '#3b82f6', '#8b5cf6', '#ec4899'];

/** checklistLines: the lines the server keeps (trimmed, blank lines dropped). */
export function checklistLines(s: unknown): string[] {
  return typeof s === 'string' ? s.split(/\r?\n/).map((l) => l.trim()).filter(Boolean) : [];
}

/** ColorControl: the palette's swatches, a custom colour, and the chip as it will look. */
function ColorControl({ value, values, set, error }: FieldControl) {
  const { t } = useTranslation();
  const color = typeof value === 'string' && value ? value : PALETTE[0]!;
  return (
    <Flex direction="column" gap="xs">
      <Text as="span" fontWeight="bold" fontSize="small" id="color-label">
        {t('fields.color')}
      </Text>
      <Flex gap="xs" wrap="wrap" alignItems="center" role="radiogroup" aria-labelledby="color-label">
        {PALETTE.map((c) => (
          <button key={c} type="button" role="radio" aria-checked={c === color} aria-label={c} className={`swatch${c === color ? ' swatch--on' : ''}`} style={{ background: c }} onClick={() => set({ color: c })} />
        ))}
        <input type="color" name="color" aria-label={t('tickets.customColor')} value={color} onChange={(e) => set({ color: e.target.value })} data-testid="color-input" aria-invalid={error ? true : undefined} />
        <span className="category-chip" data-testid="category-preview">
          <span className="category-chip__dot" style={{ background: color }} aria-hidden="true" />
          {String(values.name ?? '') || t('tickets.preview')}
        </span>
      </Flex>
      {error ? <Text variation="error" fontSize="small">{error}</Text> : null}
    </Flex>
  );
}

/** ChecklistControl: one item a line, counted as the server will keep them. */
function ChecklistControl({ value, set, error, disabled }: FieldControl) {
  const { t } = useTranslation();
  const text = typeof value === 'string' ? value : '';
  return (
    <TextAreaField
      label={t('fields.checklist')}
      descriptiveText={t('tickets.checklistHint', { count: checklistLines(text).length })}
      name="checklist"
      rows={6}
      value={text}
      onChange={(e) => set({ checklist: e.target.value })}
      {...errorOf(error)}
      isDisabled={disabled}
    />
  );
}

export const CATEGORY_FORM: FormDeclaration = {
  klass: 'Category',
  saveTestId: 'save-category',
  fields: [
    { name: 'name', type: 'text' },
    { name: 'label', type: 'text' },
    { name: 'color', type: 'custom', render: (c) => <ColorControl {...c} /> },
    { name: 'active', type: 'boolean' },
    { name: 'checklist', type: 'custom', render: (c) => <ChecklistControl {...c} /> },
  ],
};

export function Component() {
  const { t } = useTranslation();
  const ed = useRecordEditor('categories', 'Category', { color: PALETTE[0], active: true });
  const title = ed.editing ? t('tickets.editCategory') : t('tickets.newCategory');
  return <DeclaredForm form={CATEGORY_FORM} ed={ed} title={title} breadcrumbs={<DeskCrumbs db={ed.db} set="categories" current={title} />} />;
}
