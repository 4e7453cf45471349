// Newsletter preferences (SPEC §2): subscribe and pick topics; stored as the
// user's "newsletter" and "newsletter-topics" adjustments.

import { Alert, Button, CheckboxField, Fieldset, Flex, Placeholder, SwitchField } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { asApiError } from '../../../lib/errors';
import { useSession } from '../../../lib/session';
import { NEWSLETTER_TOPICS, newsletterQuery, saveNewsletter, type NewsletterPrefs, type NewsletterTopic } from '../api/newsletter';

function NewsletterForm({ userDb, prefs }: { userDb: string; prefs: NewsletterPrefs }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [subscribed, setSubscribed] = useState(prefs.subscribed);
  const [topics, setTopics] = useState<NewsletterTopic[]>(prefs.topics);
  const m = useMutation({
    mutationFn: () => saveNewsletter(userDb, prefs, { subscribed, topics }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['newsletter', userDb] }),
  });
  const toggle = (topic: NewsletterTopic, on: boolean) =>
    setTopics((ts) => (on ? [...new Set([...ts, topic])] : ts.filter((x) => x !== topic)));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    m.mutate();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Flex direction="column" gap="medium">
        {m.isSuccess ? (
          <Alert variation="success" isDismissible onDismiss={() => m.reset()}>
            {t('newsletter.saved')}
          </Alert>
        ) : null}
        <ErrorAlert error={m.error ? asApiError(m.error) : null} onDismiss={() => m.reset()} />
        <SwitchField label={t('newsletter.subscribe')} isChecked={subscribed} onChange={(e) => setSubscribed(e.target.checked)} />
        <Fieldset legend={t('newsletter.topics')} isDisabled={!subscribed} direction="column" gap="small">
          {NEWSLETTER_TOPICS.map((topic) => (
            <CheckboxField
              key={topic}
              name="topics"
              value={topic}
              label={t(`newsletter.topic.${topic}`)}
              checked={topics.includes(topic)}
              onChange={(e) => toggle(topic, e.target.checked)}
            />
          ))}
        </Fieldset>
        <Flex justifyContent="flex-end">
          <Button type="submit" variation="primary" isLoading={m.isPending}>
            {t('newsletter.update')}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}

export function Component() {
  const { t } = useTranslation();
  const session = useSession();
  const userDb = session?.userId ?? '';
  const q = useQuery({ ...newsletterQuery(userDb), enabled: !!userDb });
  return (
    <Page title={t('newsletter.title')} width="narrow">
      {q.isError ? <ErrorAlert error={asApiError(q.error)} onDismiss={() => void q.refetch()} /> : null}
      {q.isPending ? (
        <Flex direction="column" gap="small">
          <Placeholder />
          <Placeholder />
          <Placeholder />
        </Flex>
      ) : q.data ? (
        <NewsletterForm key={q.dataUpdatedAt} userDb={userDb} prefs={q.data} />
      ) : null}
    </Page>
  );
}
