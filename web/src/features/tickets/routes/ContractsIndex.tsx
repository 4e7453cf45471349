// contracts#index: search by description or payment, active/inactive filter,
// numbered pages.

import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RecordLink } from '../../../components/records/RecordPicker';
import { formatDate } from '../../../lib/format';
import type { Contract } from '../api/servicedocs';
import { DocIndex } from '../components/DocIndex';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '' } = useParams();
  return (
    <DocIndex<Contract>
      set="contracts"
      klass="Contract"
      icon="contract"
      searchIn={['description', 'payment_kind']}
      order={['created_at', 'updated_at', 'description']}
      filter={{ field: 'active', label: 'fields.active', anyLabel: 'docs.anyActive', prefix: 'docs.activeValues', values: ['true', 'false'], toSelector: (v) => v === 'true' }}
      columns={[
        { key: 'description', label: 'fields.description', render: (r) => r.description?.split('\n')[0] ?? '' },
        { key: 'customer_id', label: 'fields.customer_id', render: (r) => <RecordLink db={db} id={r.customer_id} /> },
        { key: 'payment_kind', label: 'fields.payment_kind', render: (r) => r.payment_kind ?? '' },
        { key: 'active', label: 'fields.active', render: (r) => t(`docs.activeValues.${r.active === false ? 'false' : 'true'}`) },
        { key: 'items', label: 'docs.terms', render: (r) => String(r.items?.length ?? 0) },
        { key: 'created_at', label: 'fields.created_at', render: (r) => formatDate(r.created_at, i18n.language) },
      ]}
    />
  );
}
