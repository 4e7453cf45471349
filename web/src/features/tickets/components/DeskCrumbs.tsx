import { useTranslation } from 'react-i18next';
import { Crumbs } from '../../../components/Crumbs';
// Every desk screen shows these crumbs, so the desk's styles come with them.
import './tickets.css';
import { paths } from '../../../lib/paths';

export type DeskSet = 'tickets' | 'customers' | 'equipment' | 'categories' | 'estimates' | 'contracts' | 'maintenances';

/** DeskCrumbs: Dashboard > <set> > current. */
export function DeskCrumbs({ db, set, current }: { db: string; set: DeskSet; current?: string | undefined }) {
  const { t } = useTranslation();
  const items: Array<{ label: string; to?: string }> = [
    { label: t('nav.dashboard'), to: paths.dashboard(db) },
    { label: t(`nav.${set}`), to: paths.index(db, set) },
  ];
  if (current) items.push({ label: current });
  return <Crumbs items={items} label={t('records.breadcrumbs')} />;
}
