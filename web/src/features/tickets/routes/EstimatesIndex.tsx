// estimates#index: search by number or description, filter by state,
// numbered pages; totals in the user's money format.

import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useGroupCurrency } from '../../../lib/money';
import { EnumBadge } from '../../../components/records/EnumBadge';
import { MoneyText } from '../../../components/records/Money';
import { RecordLink } from '../../../components/records/RecordPicker';
import { formatDate } from '../../../lib/format';
import { ESTIMATE_STATES, type Estimate } from '../api/servicedocs';
import { DocIndex } from '../components/DocIndex';

export function Component() {
  const { i18n } = useTranslation();
  const { account_id: db = '' } = useParams();
  const currency = useGroupCurrency(db);
  return (
    <DocIndex<Estimate>
      set="estimates"
      klass="Estimate"
      icon="estimate"
      searchIn={['number', 'description']}
      order={['number', 'created_at', 'total', 'valid_until']}
      filter={{ field: 'state', label: 'docs.stateLabel', anyLabel: 'docs.anyState', prefix: 'enums.estimate_state', values: ESTIMATE_STATES }}
      columns={[
        { key: 'number', label: 'fields.number', render: (r) => <>#{r.number} {r.description?.split('\n')[0]}</> },
        { key: 'state', label: 'docs.stateLabel', render: (r) => <EnumBadge name="estimate_state" value={r.state} /> },
        { key: 'customer_id', label: 'fields.customer_id', render: (r) => <RecordLink db={db} id={r.customer_id} /> },
        { key: 'total', label: 'fields.total', render: (r) => <MoneyText units={r.total} currency={currency} /> },
        { key: 'valid_until', label: 'fields.valid_until', render: (r) => formatDate(r.valid_until, i18n.language) },
        { key: 'created_at', label: 'fields.created_at', render: (r) => formatDate(r.created_at, i18n.language) },
      ]}
    />
  );
}
