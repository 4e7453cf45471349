import { RecordCrumbs } from '../../../components/Crumbs';
// Every desk screen shows these crumbs, so the desk's styles come with them.
import './tickets.css';

export type DeskSet = 'tickets' | 'customers' | 'equipment' | 'categories' | 'estimates' | 'contracts' | 'maintenances';

/** DeskCrumbs: Dashboard > <set> > current. */
export function DeskCrumbs({ db, set, current }: { db: string; set: DeskSet; current?: string | undefined }) {
  return <RecordCrumbs db={db} set={set} current={current} />;
}
