// The show screen of a service document: the record kit's frame with the
// desk's crumbs and query keys (edit on "e" unless the document is frozen).

import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { ShowFrame } from '../../../components/records/ShowFrame';
import type { Doc } from '../../../lib/couch';
import { paths } from '../../../lib/paths';
import { DeskCrumbs } from './DeskCrumbs';

export function DocShow({
  set,
  itemType,
  title,
  doc,
  error,
  editable = true,
  actions,
  top,
  details,
}: {
  set: 'estimates' | 'contracts' | 'maintenances';
  itemType: string;
  title: string;
  doc: Doc | undefined;
  error: unknown;
  editable?: boolean;
  /** Actions before edit and delete (print). */
  actions?: ReactNode;
  /** What goes above the details (state moves, notices). */
  top?: ReactNode;
  details: ReactNode;
}) {
  const { account_id: db = '', record_id: id = '' } = useParams();
  return (
    <ShowFrame
      scope="tickets"
      itemType={itemType}
      title={title}
      breadcrumbs={<DeskCrumbs db={db} set={set} current={doc ? title : undefined} />}
      doc={doc}
      error={error}
      editTo={editable ? paths.edit(db, set, id) : null}
      afterDelete={paths.index(db, set)}
      actions={actions}
      top={top}
      details={details}
    />
  );
}
