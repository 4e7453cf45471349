// The state of a new/edit screen for one desk record: load the stored
// record when editing, keep the values, save (POST or PUT) and go to the
// record; server errors (field errors, a stale revision) are kept.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { getDoc, type Doc } from '../../../lib/couch';
import { asApiError, type ApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { saveRecord } from '../api/customers';

const SERVER_FIELDS = ['created_at', 'updated_at', 'created_by', 'updated_by', 'search'];

export function useRecordEditor(set: string, klass: string, initial: Record<string, unknown>) {
  const { account_id: db = '', record_id: id } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const stored = useQuery({ queryKey: ['tickets', db, 'edit', id], queryFn: () => getDoc<Doc>(db, id ?? ''), enabled: !!id, retry: false });
  const [values, setValues] = useState<Record<string, unknown> | null>(id ? null : initial);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    if (stored.data && values === null) setValues(stored.data);
  }, [stored.data, values]);
  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, unknown> = { ...values };
      for (const f of SERVER_FIELDS) delete body[f];
      for (const [k, v] of Object.entries(body)) if (v === null || v === '') delete body[k];
      return saveRecord(db, klass, body);
    },
    onSuccess: async (res) => {
      await qc.invalidateQueries({ queryKey: ['tickets', db] });
      await qc.invalidateQueries({ queryKey: ['records', db] });
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
