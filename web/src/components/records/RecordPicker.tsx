// RecordPicker: chooses a record of a set by searching its name as you type
// (a debounced _find with a case-insensitive $regex on the label field),
// with the keyboard-friendly combobox of Amplify UI; RecordLink shows a
// referenced record's name as a link to it. Both keep ids out of sight.

import { Autocomplete, Button, Flex, Text, type ComboBoxOption } from '@aws-amplify/ui-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { escapeRegex, find, getDoc, type Doc } from '../../lib/couch';
import { liveDoc } from '../../lib/live-deps';
import { recordPath } from '../../lib/paths';
import { AppLink } from '../RouterLink';
import { errorOf } from '../ErrorAlert';

/** labelOf reads the label field of a record, falling back to other names. */
export function labelOf(doc: Doc | undefined, field: string): string {
  if (!doc) return '';
  for (const f of [field, 'name', 'label', 'title', 'identifier', 'description', 'email']) {
    const v = doc[f];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number') return String(v);
  }
  return '';
}

export const recordLabelQuery = (db: string, id: string, field: string) => ({
  queryKey: ['record-label', db, id, field],
  queryFn: () => getDoc<Doc>(db, id),
  staleTime: 60_000,
  meta: liveDoc(id),
});

/** useDebounced returns value once it has stopped changing for ms. */
export function useDebounced<T>(value: T, ms = 250): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const h = setTimeout(() => setV(value), ms);
    return () => clearTimeout(h);
  }, [value, ms]);
  return v;
}

export function RecordLink({ db, id, labelField = 'name' }: { db: string; id: unknown; labelField?: string }) {
  const { t } = useTranslation();
  const ok = typeof id === 'string' && id !== '';
  const q = useQuery({ ...recordLabelQuery(db, ok ? id : '', labelField), enabled: ok && !!db });
  if (!ok) return null;
  const to = recordPath(db, id);
  const text = q.isPending ? '…' : q.isError ? t('records.missingRecord') : labelOf(q.data, labelField) || t('records.untitled');
  return to && !q.isError ? (
    <AppLink to={to} className="record-link">
      {text}
    </AppLink>
  ) : (
    <Text as="span" variation="tertiary">
      {text}
    </Text>
  );
}

export interface RecordPickerProps {
  db: string;
  klass: string;
  /** The field searched and shown (name, identifier…). */
  labelField?: string;
  /** Extra fields shown after the label in the options (e.g. a customer's e-mail). */
  detailField?: string;
  /** More of the _find selector (e.g. equipment of one customer). */
  filter?: Record<string, unknown>;
  label: string;
  name: string;
  value: string | null | undefined;
  onChange: (id: string | null, doc?: Doc) => void;
  error?: string | undefined;
  isRequired?: boolean;
  isDisabled?: boolean;
  placeholder?: string;
  /** Shown under the field when nothing matches, e.g. a "create customer" button. */
  footer?: React.ReactNode;
}

export function RecordPicker({
  db,
  klass,
  labelField = 'name',
  detailField,
  filter,
  label,
  name,
  value,
  onChange,
  error,
  isRequired,
  isDisabled,
  placeholder,
  footer,
}: RecordPickerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState<string | null>(null); // null: not typing, show the chosen record
  const q = useDebounced(text ?? '', 250);
  const search = useQuery({
    queryKey: ['record-picker', db, klass, labelField, filter ?? null, q],
    queryFn: () =>
      find<Doc>(db, {
        selector: { klass, ...(filter ?? {}), ...(q.trim() ? { [labelField]: { $regex: `(?i)${escapeRegex(q.trim())}` } } : {}) },
        sort: [{ [labelField]: 'asc' }],
        limit: 10,
      }).then((r) => r.docs ?? []),
    enabled: !!db && text !== null,
    placeholderData: keepPreviousData,
  });
  const chosen = useQuery({ ...recordLabelQuery(db, value ?? '', labelField), enabled: !!db && !!value });
  const chosenLabel = value ? (chosen.isPending ? '…' : labelOf(chosen.data, labelField) || t('records.untitled')) : '';
  const docs = search.data ?? [];
  const options: ComboBoxOption[] = docs.map((d) => ({
    id: d._id,
    label: labelOf(d, labelField) || t('records.untitled'),
    detail: detailField && typeof d[detailField] === 'string' ? (d[detailField] as string) : '',
  }));
  const to = value ? recordPath(db, value) : null;
  return (
    <Flex direction="column" gap="xxs" className="record-picker" data-testid={`picker-${name}`}>
      <Autocomplete
        label={label}
        name={name}
        labelHidden={false}
        value={text ?? chosenLabel}
        options={options}
        optionFilter={() => true}
        isLoading={search.isFetching}
        placeholder={placeholder ?? t('records.pickerPlaceholder')}
        {...errorOf(error)}
        isRequired={isRequired}
        isDisabled={isDisabled}
        renderOption={(o) => (
          <span>
            {o.label}
            {o.detail ? <Text as="span" variation="tertiary"> · {o.detail}</Text> : null}
          </span>
        )}
        menuSlots={{
          Empty: <Text padding="small">{t('records.noMatches')}</Text>,
          ...(footer ? { Footer: <div className="record-picker__footer">{footer}</div> } : {}),
        }}
        onFocus={() => setText((cur) => cur ?? '')}
        onChange={(e) => setText(e.target.value)}
        onSelect={(o) => {
          setText(null);
          onChange(o.id, docs.find((d) => d._id === o.id));
        }}
        onClear={() => {
          setText('');
          onChange(null);
        }}
        onBlur={() => setText(null)}
      />
      {value && to && text === null ? (
        <Flex gap="xs" alignItems="center">
          <AppLink to={to} className="record-link">
            {chosenLabel}
          </AppLink>
          {!isDisabled && !isRequired ? (
            <Button size="small" variation="link" onClick={() => onChange(null)} aria-label={t('records.clearChoice', { what: label })}>
              {t('records.clear')}
            </Button>
          ) : null}
        </Flex>
      ) : null}
    </Flex>
  );
}
