// reader_labels#edit.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Page } from '../../../components/Page';
import type { FormValues } from '../../../components/records/fields';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { labelQuery, saveLabel } from '../api/labels';
import type { ReaderLabel } from '../api/types';
import { LabelForm } from '../components/LabelForm';
import { ReaderCrumbs } from '../components/ReaderCrumbs';
import { RecordNotFoundPage } from '../../../components/records/RecordNotFound';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery(labelQuery(db, id));
  const [values, setValues] = useState<FormValues | null>(null);
  useEffect(() => {
    if (q.data && !values) setValues({ ...q.data });
  }, [q.data, values]);
  const save = useMutation({
    mutationFn: () => saveLabel(db, values as ReaderLabel),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['reader', db] });
      navigate(paths.show(db, 'reader_labels', id));
    },
  });
  if (q.isError) {
    return <RecordNotFoundPage title={t('nav.reader_labels')} breadcrumbs={<ReaderCrumbs db={db} set="reader_labels" />} />;
  }
  return (
    <Page title={t('reader.editLabel')} width="narrow" breadcrumbs={<ReaderCrumbs db={db} set="reader_labels" current={q.data?.name} />}>
      <LabelForm
        values={values ?? {}}
        onChange={(name, value) => setValues((v) => ({ ...(v ?? {}), [name]: value }))}
        onSubmit={() => save.mutate()}
        onCancel={() => navigate(paths.show(db, 'reader_labels', id))}
        loading={!values}
        saving={save.isPending}
        error={save.error ? asApiError(save.error) : null}
        onDismissError={() => save.reset()}
      />
    </Page>
  );
}
