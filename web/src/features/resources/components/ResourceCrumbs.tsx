import { useTranslation } from 'react-i18next';
import { Crumbs } from '../../../components/Crumbs';
import { paths } from '../../../lib/paths';

export function ResourceCrumbs({ db, set, current }: { db: string; set: string; current?: string }) {
  const { t } = useTranslation();
  const items: Array<{ label: string; to?: string }> = [
    { label: t('nav.dashboard'), to: paths.dashboard(db) },
    { label: t(`nav.${set}`), to: paths.index(db, set) },
  ];
  if (current) items.push({ label: current });
  return <Crumbs items={items} label={t('records.breadcrumbs')} />;
}
