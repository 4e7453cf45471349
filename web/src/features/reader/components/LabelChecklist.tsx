// Several labels per subscription (what Miniflux users have long asked for):
// one checkbox per label of the Group.

import { CheckboxField, Flex, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../../components/RouterLink';
import { paths } from '../../../lib/paths';
import type { ReaderLabel } from '../api/types';

export function LabelChecklist({
  db,
  labels,
  value,
  onChange,
  error,
  disabled,
}: {
  db: string;
  labels: ReaderLabel[];
  value: string[];
  onChange: (ids: string[]) => void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="amplify-flex" style={{ flexDirection: 'column', gap: '0.25rem', border: 0, padding: 0, margin: 0 }} data-testid="label-checklist">
      <legend className="amplify-label">{t('fields.reader_label_ids')}</legend>
      {labels.length === 0 ? (
        <Text variation="secondary" fontSize="small">
          {t('reader.noLabelsYet')} <AppLink to={paths.create(db, 'reader_labels')}>{t('reader.newLabel')}</AppLink>
        </Text>
      ) : (
        <Flex wrap="wrap" gap="small">
          {labels.map((l) => (
            <CheckboxField
              key={l._id}
              label={l.name}
              name="reader_label_ids"
              value={l._id}
              checked={value.includes(l._id)}
              isDisabled={disabled}
              onChange={(e) => onChange(e.target.checked ? [...value, l._id] : value.filter((v) => v !== l._id))}
            />
          ))}
        </Flex>
      )}
      {error ? (
        <Text variation="error" fontSize="small" role="alert">
          {error}
        </Text>
      ) : null}
    </fieldset>
  );
}
