import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import type { Doc, WriteResult } from '../../../lib/couch';
import { asApiError } from '../../../lib/errors';
import { ownWrite, refetchOwnWrite } from '../../../lib/live-deps';
import { paths } from '../../../lib/paths';
import { recordQuery } from '../api/get-record';
import { updateRecord } from '../api/update-record';
import { ResourceCrumbs } from '../components/ResourceCrumbs';
import { ResourceForm } from '../components/ResourceForm';
import { useResource } from '../components/useResource';

export function Component() {
  const { t } = useTranslation();
  const { def, db, id } = useResource();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const m = useMutation({
    mutationFn: (values: Record<string, unknown>): Promise<WriteResult> => updateRecord(db, { ...(q.data as Doc), ...values }),
    onSuccess: async (res) => {
      await refetchOwnWrite(qc, ownWrite(db, id, def.klass, false, res.rev), undefined, res.doc);
      navigate(paths.show(db, def.set, id));
    },
  });
  // Paused once saving: the save's own refetch is for the screens that show the record, not this form.
  const q = useQuery({ ...recordQuery(db, id), enabled: !m.isPending && !m.isSuccess });
  const title = t('records.editTitle', { what: t(`nav.${def.set}`) });
  return (
    <Page title={title} width="medium" breadcrumbs={<ResourceCrumbs db={db} set={def.set} current={t('records.edit')} />}>
      {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
      <ResourceForm
        def={def}
        initial={(q.data ?? {}) as Record<string, unknown>}
        loading={q.isPending}
        saving={m.isPending}
        error={m.error ? asApiError(m.error) : null}
        onDismissError={() => m.reset()}
        onSubmit={(v) => m.mutate(v)}
        onCancel={() => navigate(paths.show(db, def.set, id))}
      />
    </Page>
  );
}
