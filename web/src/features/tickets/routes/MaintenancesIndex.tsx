// maintenances#index: by date, next maintenance or warranty end; a link to
// the maintenance plan.

import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { AppIcon } from '../../../components/icons';
import { RecordLink } from '../../../components/records/RecordPicker';
import { ButtonLink } from '../../../components/RouterLink';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import type { Maintenance } from '../api/servicedocs';
import { DocIndex } from '../components/DocIndex';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '' } = useParams();
  return (
    <DocIndex<Maintenance>
      set="maintenances"
      klass="Maintenance"
      icon="maintenance"
      searchIn={['date', 'next_maintenance']}
      order={['date', 'next_maintenance', 'warranty_until', 'created_at']}
      extraActions={
        <ButtonLink to={`${paths.index(db, 'maintenances')}/plan`} size="small" data-testid="open-plan">
          <AppIcon name="plan" /> {t('docs.plan.title')}
        </ButtonLink>
      }
      columns={[
        { key: 'date', label: 'fields.date', render: (r) => formatDate(r.date, i18n.language) },
        { key: 'equipment_id', label: 'fields.equipment_id', render: (r) => <RecordLink db={db} id={r.equipment_id} labelField="identifier" /> },
        { key: 'category_id', label: 'fields.category_id', render: (r) => <RecordLink db={db} id={r.category_id} /> },
        { key: 'next_maintenance', label: 'fields.next_maintenance', render: (r) => formatDate(r.next_maintenance, i18n.language) },
        { key: 'warranty_until', label: 'fields.warranty_until', render: (r) => formatDate(r.warranty_until, i18n.language) },
      ]}
    />
  );
}
