// reader_subscriptions#edit: the subscription's own fields; its status and
// the feed's title (unless kept) are the fetcher's.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Page } from '../../../components/Page';
import type { FormValues } from '../../../components/records/fields';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { saveSubscription, subscriptionQuery } from '../api/subscriptions';
import type { ReaderSubscription } from '../api/types';
import { ReaderCrumbs } from '../components/ReaderCrumbs';
import { SubscriptionForm, toNumber } from '../components/SubscriptionForm';
import { RecordNotFoundPage } from '../../../components/records/RecordNotFound';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery(subscriptionQuery(db, id));
  const [values, setValues] = useState<FormValues | null>(null);
  useEffect(() => {
    if (q.data && !values) setValues({ ...q.data, reader_label_ids: q.data.reader_label_ids ?? [] });
  }, [q.data, values]);
  const save = useMutation({
    mutationFn: () => {
      const doc = { ...(values as ReaderSubscription) };
      const interval = toNumber(doc.refresh_interval);
      if (interval === undefined) delete doc.refresh_interval;
      else doc.refresh_interval = interval;
      return saveSubscription(db, doc);
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['reader', db] });
      navigate(paths.show(db, 'reader_subscriptions', id));
    },
  });
  if (q.isError) {
    return <RecordNotFoundPage title={t('nav.reader_subscriptions')} breadcrumbs={<ReaderCrumbs db={db} set="reader_subscriptions" />} />;
  }
  const title = q.data?.title || q.data?.url || '';
  return (
    <Page title={t('reader.editSubscription')} width="medium" breadcrumbs={<ReaderCrumbs db={db} set="reader_subscriptions" current={title || undefined} />}>
      <SubscriptionForm
        db={db}
        values={values ?? {}}
        onChange={(name, value) => setValues((v) => ({ ...(v ?? {}), [name]: value }))}
        onSubmit={() => save.mutate()}
        onCancel={() => navigate(paths.show(db, 'reader_subscriptions', id))}
        loading={!values}
        saving={save.isPending}
        error={save.error ? asApiError(save.error) : null}
        onDismissError={() => save.reset()}
      />
    </Page>
  );
}
