// The state of a module's new/edit screen for one record: load the stored
// record when editing, keep the values, save (POST or PUT) and go to the
// record; server errors (field errors, a stale revision) are kept. scope
// is the module's query-key root ("tickets", "finance"): its queries are
// refreshed after a save, as are the record kit's.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { getDoc, saveDoc, type Doc } from '../../lib/couch';
import { asApiError, type ApiError } from '../../lib/errors';
import { paths } from '../../lib/paths';
import { ownWrite, refetchOwnWrite } from '../../lib/live-deps';

const SERVER_FIELDS = ['created_at', 'updated_at', 'created_by', 'updated_by', 'search'];

export interface RecordEditorOptions {
  /** The module's query-key root, refreshed after a save. */
  scope: string;
  /** Last changes to the body before it is sent (split lists, drop server fields). */
  prepare?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** Other query roots to refresh after a save (e.g. "balances"). */
  alsoRefresh?: string[];
}

/** RecordEditor is what a new/edit screen works with (DeclaredForm takes it whole). */
export type RecordEditor = ReturnType<typeof useRecordEditor>;

export function useRecordEditor(set: string, klass: string, initial: Record<string, unknown>, opts: RecordEditorOptions) {
  const { account_id: db = '', record_id: id } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { scope, prepare, alsoRefresh = [] } = opts;
  // Read once per opening of the form: the values are the form's from then on, and its revision is what the
  // save is checked against (a change meanwhile is a 409), so notices and the save's own refetch leave it alone.
  const stored = useQuery({
    queryKey: [scope, db, 'edit', id],
    queryFn: () => getDoc<Doc>(db, id ?? ''),
    enabled: !!id,
    retry: false,
    gcTime: 0,
    meta: { live: false },
  });
  const [values, setValues] = useState<Record<string, unknown> | null>(id ? null : initial);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    if (stored.data && values === null) setValues(stored.data);
  }, [stored.data, values]);
  const save = useMutation({
    mutationFn: () => {
      let body: Record<string, unknown> = { ...values };
      for (const f of SERVER_FIELDS) delete body[f];
      for (const [k, v] of Object.entries(body)) if (v === null || v === '') delete body[k];
      if (prepare) body = prepare(body);
      return saveDoc(db, klass, body);
    },
    onSuccess: async (res) => {
      await refetchOwnWrite(
        qc,
        ownWrite(db, res.id, klass, false, res.rev),
        [scope, 'records', ...alsoRefresh].map((root) => [root, db]),
        res.doc,
      );
      navigate(paths.show(db, set, res.id));
    },
    onError: (e) => setError(asApiError(e)),
  });
  return {
    db,
    id,
    editing: !!id,
    notFound: stored.isError,
    values,
    set: (patch: Record<string, unknown>) => setValues((v) => ({ ...(v ?? {}), ...patch })),
    save: () => save.mutate(),
    saving: save.isPending,
    error,
    setError,
    cancel: () => navigate(id ? paths.show(db, set, id) : paths.index(db, set)),
  };
}
