// equipment#index: search by identifier, maker or description, numbered
// pages; pick items (across pages) and print their labels on a 62 mm label
// printer or an A4 sheet.

import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RecordLink } from '../../../components/records/RecordPicker';
import { formatDate } from '../../../lib/format';
import type { Equipment } from '../api/types';
import { DocIndex } from '../components/DocIndex';
import { LabelLinks } from '../components/LabelLinks';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '' } = useParams();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  return (
    <DocIndex<Equipment>
      set="equipment"
      klass="Equipment"
      icon="equipment"
      searchIn={['identifier', 'maker', 'description', 'search']}
      // By identifier, as the server keys Equipment's index (shared/ticket).
      order={['identifier', 'created_at', 'maker']}
      ascending
      selection={{
        selected,
        onChange: setSelected,
        rowLabel: (r) => t('docs.labels.select', { name: r.identifier ?? '' }),
        allLabel: t('docs.labels.selectPage'),
      }}
      selectedActions={
        <Flex gap="small" wrap="wrap" alignItems="center" className="selection-bar" data-testid="selection-bar">
          <Text fontSize="small" fontWeight="bold">
            {t('docs.labels.selected', { count: selected.size })}
          </Text>
          <LabelLinks db={db} ids={[...selected]} label={t('docs.labels.print')} />
          <Button size="small" variation="link" onClick={() => setSelected(new Set())}>
            {t('docs.labels.clear')}
          </Button>
        </Flex>
      }
      columns={[
        { key: 'identifier', label: 'fields.identifier', render: (r) => r.identifier },
        { key: 'maker', label: 'fields.maker', render: (r) => r.maker ?? '' },
        { key: 'customer_id', label: 'fields.customer_id', render: (r) => <RecordLink db={db} id={r.customer_id} /> },
        { key: 'location', label: 'fields.location', render: (r) => r.location ?? '' },
        { key: 'created_at', label: 'fields.created_at', render: (r) => formatDate(r.created_at, i18n.language) },
      ]}
    />
  );
}
