import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/Page';
import { asApiError } from '../../../lib/errors';
import { ownWrite, refetchOwnWrite } from '../../../lib/live-deps';
import { paths } from '../../../lib/paths';
import { createRecord } from '../api/create-record';
import { recordQuery } from '../api/get-record';
import { ResourceCrumbs } from '../components/ResourceCrumbs';
import { ResourceForm } from '../components/ResourceForm';
import { useResource } from '../components/useResource';

export function Component() {
  const { t } = useTranslation();
  const { def, db } = useResource();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const m = useMutation({
    mutationFn: (values: Record<string, unknown>) => createRecord(db, def.prefix, def.klass, values),
    onSuccess: async (res) => {
      await refetchOwnWrite(qc, ownWrite(db, res.id, def.klass, false, res.rev), undefined, res.doc);
      // The record's screen opens on the record as stored; only its panels read.
      if (res.doc) qc.setQueryData(recordQuery(db, res.id).queryKey, res.doc);
      navigate(paths.show(db, def.set, res.id));
    },
  });
  const title = t('records.newTitle', { what: t(`nav.${def.set}`) });
  return (
    <Page title={title} width="medium" breadcrumbs={<ResourceCrumbs db={db} set={def.set} current={t('records.new')} />}>
      <ResourceForm
        def={def}
        initial={{}}
        loading={false}
        saving={m.isPending}
        error={m.error ? asApiError(m.error) : null}
        onDismissError={() => m.reset()}
        onSubmit={(v) => m.mutate(v)}
        onCancel={() => navigate(paths.index(db, def.set))}
      />
    </Page>
  );
}
