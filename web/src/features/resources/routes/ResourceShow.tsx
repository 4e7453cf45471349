// <set>#show for any record: details, edit and delete, and the comments and
// history panels (DocumentChange versions from the change stream).

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { CommentsPanel } from '../../../components/records/CommentsPanel';
import { RecordActions } from '../../../components/records/RecordActions';
import { ConfirmDelete } from '../../../components/records/ConfirmDelete';
import { HistoryList } from '../../../components/records/HistoryList';
import { DetailList, RecordShow, type DetailRow } from '../../../components/records/RecordShow';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { deleteRecord } from '../api/delete-record';
import { recordQuery } from '../api/get-record';
import { fieldContext, fieldKind, formatValue, kindOf, moneyOf } from '../components/format-value';
import { ResourceCrumbs } from '../components/ResourceCrumbs';
import { useResource } from '../components/useResource';
import { RecordNotFound } from '../../../components/records/RecordNotFound';

const META = ['created_at', 'updated_at'];
const HIDDEN = new Set(['_id', '_rev', 'klass', ...META]);

export function Component() {
  const { t, i18n } = useTranslation();
  const { def, db, id } = useResource();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const q = useQuery(recordQuery(db, id));
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: () => deleteRecord(db, id, String(q.data?._rev ?? '')),
    onSuccess: async () => {
      setConfirming(false);
      await qc.invalidateQueries({ queryKey: ['records', db] });
      navigate(paths.index(db, def.set));
    },
  });

  const doc = q.data;
  const title = doc ? String(doc.title ?? doc.name ?? doc.description ?? doc.identifier ?? doc.email ?? doc._id) : t(`nav.${def.set}`);
  // Each field once: the form's fields, then the list's other columns; the
  // record's dates and author last.
  const names = (
    def.fields.length
      ? [...new Set([...def.fields.map((f) => f.name), ...def.columns.map((c) => c.name)])]
      : Object.keys(doc ?? {})
  ).filter((k) => !HIDDEN.has(k));
  const show = (n: string) => {
    const f = def.fields.find((x) => x.name === n);
    const col = def.columns.find((c) => c.name === n);
    const kind = f ? fieldKind(f) : (col?.kind ?? kindOf(n, doc?.[n]));
    return formatValue(kind, doc?.[n], i18n.language, t, { ...fieldContext(f, n, db), ...moneyOf(doc) });
  };
  const rows: DetailRow[] = doc
    ? [
        ...names.map((n) => ({ key: n, label: `fields.${n}`, value: show(n) })),
        ...META.map((n) => ({ key: n, label: `fields.${n}`, value: formatValue('datetime', doc[n], i18n.language, t) })),
        { key: 'updated_by', label: 'fields.updated_by', value: formatValue('text', doc.updated_by, i18n.language, t) },
      ]
    : [];

  const notFound = q.isError && asApiError(q.error).status === 404;
  return (
    <Page
      title={title}
      breadcrumbs={<ResourceCrumbs db={db} set={def.set} current={doc ? title : undefined} />}
      actions={
        doc && !def.readOnly ? (
          <RecordActions editTo={paths.edit(db, def.set, id)} onDelete={() => setConfirming(true)} />
        ) : null
      }
    >
      {notFound ? (
        <RecordNotFound />
      ) : (
        <>
          {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
          <ErrorAlert error={del.error ? asApiError(del.error) : null} onDismiss={() => del.reset()} />
          <RecordShow
            details={<DetailList rows={rows} loading={q.isPending} />}
            // Read with the record, in its batch: they need only its id (and the klass, when the set names none).
            comments={def.klass || doc ? <CommentsPanel db={db} itemId={id} itemType={def.klass || String(doc?.klass ?? '')} readOnly={def.set === 'comments'} /> : null}
            history={<HistoryList db={db} itemId={id} />}
          />
        </>
      )}
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={title} />
    </Page>
  );
}
