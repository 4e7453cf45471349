import { useTranslation } from 'react-i18next';
import { Crumbs } from '../../../components/Crumbs';
import { paths } from '../../../lib/paths';

/** Dashboard > Admin > … (the admin screens' breadcrumb). */
export function AdminCrumbs({ db, trail = [] }: { db: string; trail?: Array<{ label: string; to?: string }> }) {
  const { t } = useTranslation();
  return (
    <Crumbs
      label={t('records.breadcrumbs')}
      items={[{ label: t('nav.dashboard'), to: paths.dashboard(db) }, { label: t('accounts.admin.crumb'), to: paths.admin(db) }, ...trail]}
    />
  );
}
