import { useTranslation } from 'react-i18next';
import { Crumbs } from '../../../components/Crumbs';
import { paths } from '../../../lib/paths';
// Every finance screen shows these crumbs, so the module's styles come with them.
import './finance.css';

export type FinanceSet = 'wallets' | 'incomes' | 'outgos' | 'transfers' | 'exchanges' | 'mappings';

/** FinanceCrumbs: Dashboard > <set> > current. */
export function FinanceCrumbs({ db, set, current }: { db: string; set: FinanceSet; current?: string | undefined }) {
  const { t } = useTranslation();
  const items: Array<{ label: string; to?: string }> = [
    { label: t('nav.dashboard'), to: paths.dashboard(db) },
    { label: t(`nav.${set}`), to: paths.index(db, set) },
  ];
  if (current) items.push({ label: current });
  return <Crumbs items={items} label={t('records.breadcrumbs')} />;
}
