// reader_subscriptions#new: a feed URL, or a web page whose feed the server
// finds; the server fetches it before subscribing, so a URL that is not a
// feed is refused under the field and nothing is saved.

import { Text } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Page } from '../../../components/Page';
import type { FormValues } from '../../../components/records/fields';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { subscribe, type SubscribeInput } from '../api/subscriptions';
import { ReaderCrumbs } from '../components/ReaderCrumbs';
import { SubscriptionForm, toNumber } from '../components/SubscriptionForm';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [values, setValues] = useState<FormValues>({ url: '', title: '', customize_title: false, refresh_interval: 60, active: true, reader_label_ids: [] });
  const save = useMutation({
    mutationFn: () => {
      const input: SubscribeInput = {
        url: String(values.url ?? '').trim(),
        customize_title: values.customize_title === true,
        active: values.active !== false,
        reader_label_ids: (values.reader_label_ids as string[]) ?? [],
      };
      const title = String(values.title ?? '').trim();
      if (title) input.title = title;
      const interval = toNumber(values.refresh_interval);
      if (interval !== undefined) input.refresh_interval = interval;
      return subscribe(db, input);
    },
    onSuccess: async (res) => {
      await qc.invalidateQueries({ queryKey: ['reader', db] });
      navigate(paths.show(db, 'reader_subscriptions', res.id));
    },
  });
  return (
    <Page title={t('reader.newSubscription')} width="medium" breadcrumbs={<ReaderCrumbs db={db} set="reader_subscriptions" current={t('records.new')} />}>
      <SubscriptionForm
        db={db}
        values={values}
        onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
        onSubmit={() => save.mutate()}
        onCancel={() => navigate(paths.index(db, 'reader_subscriptions'))}
        saving={save.isPending}
        error={save.error ? asApiError(save.error) : null}
        onDismissError={() => save.reset()}
        submitLabel={t('reader.subscribe')}
        hint={
          <Text variation="secondary" fontSize="small">
            {t('reader.subscribeHint')}
          </Text>
        }
      />
    </Page>
  );
}
