// reader_labels#new.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Page } from '../../../components/Page';
import type { FormValues } from '../../../components/records/fields';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { createLabel } from '../api/labels';
import { LabelForm } from '../components/LabelForm';
import { ReaderCrumbs } from '../components/ReaderCrumbs';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [values, setValues] = useState<FormValues>({ name: '', kind: 'label' });
  const save = useMutation({
    mutationFn: () => createLabel(db, { name: String(values.name ?? ''), kind: String(values.kind ?? 'label') }),
    onSuccess: async (res) => {
      await qc.invalidateQueries({ queryKey: ['reader', db, 'labels'] });
      navigate(paths.show(db, 'reader_labels', res.id));
    },
  });
  return (
    <Page title={t('reader.newLabel')} width="narrow" breadcrumbs={<ReaderCrumbs db={db} set="reader_labels" current={t('records.new')} />}>
      <LabelForm
        values={values}
        onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
        onSubmit={() => save.mutate()}
        onCancel={() => navigate(paths.index(db, 'reader_labels'))}
        saving={save.isPending}
        error={save.error ? asApiError(save.error) : null}
        onDismissError={() => save.reset()}
      />
    </Page>
  );
}
