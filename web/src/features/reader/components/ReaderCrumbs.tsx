import { RecordCrumbs } from '../../../components/Crumbs';

/** ReaderCrumbs: Dashboard > <set> > current. */
export function ReaderCrumbs({ db, set, current }: { db: string; set: 'reader_items' | 'reader_subscriptions' | 'reader_labels'; current?: string | undefined }) {
  return <RecordCrumbs db={db} set={set} current={current} />;
}
