import { RecordCrumbs } from '../../../components/Crumbs';
// Every finance screen shows these crumbs, so the module's styles come with them.
import './finance.css';

export type FinanceSet = 'wallets' | 'incomes' | 'outgos' | 'transfers' | 'exchanges' | 'mappings';

/** FinanceCrumbs: Dashboard > <set> > current. */
export function FinanceCrumbs({ db, set, current }: { db: string; set: FinanceSet; current?: string | undefined }) {
  return <RecordCrumbs db={db} set={set} current={current} />;
}
