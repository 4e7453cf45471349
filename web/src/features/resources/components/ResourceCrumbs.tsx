import { RecordCrumbs } from '../../../components/Crumbs';

export function ResourceCrumbs({ db, set, current }: { db: string; set: string; current?: string }) {
  return <RecordCrumbs db={db} set={set} current={current} />;
}
