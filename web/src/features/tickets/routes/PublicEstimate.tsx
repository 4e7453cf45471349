// /e/:token — the estimate a customer approves or refuses by typing their
// name (and a note); the decision is recorded once, and the page then shows
// it. The shop's name, phones and address head it; its state reads
// "Awaiting your approval", then Approved or Refused — never the shop's own
// words. No sign-in, no app header.

import { Alert, Badge, Button, Card, Flex, Heading, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorAlert, useFieldError } from '../../../components/ErrorAlert';
import { MultilineText } from '../../../components/records/MultilineText';
import { Page } from '../../../components/Page';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { formatDate, formatDateTime } from '../../../lib/format';
import { decideEstimate, decided, publicEstimateQuery } from '../api/servicedocs';
import { EstimateLines } from '../components/EstimateLines';
import { PublicError, ShopCard, usePublicLocale } from './PublicStatus';

export function Component() {
  const { t, i18n } = useTranslation();
  const { token = '' } = useParams();
  const qc = useQueryClient();
  const q = useQuery(publicEstimateQuery(token));
  usePublicLocale(q.data?.locale);
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'refuse') => decideEstimate(token, { decision, name: name.trim(), note: note.trim() }),
    onSuccess: (data) => qc.setQueryData(publicEstimateQuery(token).queryKey, data),
    onError: async (e) => {
      setError(asApiError(e));
      // Decided meanwhile (another tab, the shop): show what stands.
      if (asApiError(e).status === 409) await qc.invalidateQueries({ queryKey: ['public', 'estimate', token] });
    },
  });
  const fieldError = useFieldError(error);
  const est = q.data?.estimate;
  const submit = (decision: 'approve' | 'refuse') => {
    if (!name.trim()) {
      setError(clientValidationError({ name: ["can't be blank"] }));
      return;
    }
    setError(null);
    decide.mutate(decision);
  };
  return (
    <Page title={est ? t('docs.public.estimateTitle', { number: est.number }) : t('docs.public.estimateHeading')} width="medium">
      {q.isError ? (
        <PublicError error={q.error} />
      ) : !q.data || !est ? (
        <Text>{t('common.loading')}</Text>
      ) : (
        <Flex direction="column" gap="medium" data-testid="estimate-page">
          <ShopCard shop={q.data.shop} />
          <Card variation="elevated">
            <Flex direction="column" gap="small">
              <Flex alignItems="center" gap="small" wrap="wrap">
                <Heading level={3}>#{est.number}</Heading>
                <Badge size="large" variation={est.state === 'approved' ? 'success' : est.state === 'refused' ? 'error' : 'info'} data-testid="public-state">
                  {t(`docs.public.state.${decided(est.state) ? est.state : 'sent'}`)}
                </Badge>
              </Flex>
              <MultilineText text={est.description} />
              {est.valid_until ? <Text fontSize="small">{t('docs.public.validUntil', { date: formatDate(est.valid_until, i18n.language) })}</Text> : null}
              <EstimateLines items={est.items ?? []} total={est.total} testId="public-lines" totalTestId="public-total" />
              {est.observation ? <MultilineText text={est.observation} /> : null}
            </Flex>
          </Card>
          {decided(est.state) ? (
            <Alert variation={est.state === 'approved' ? 'success' : 'warning'} data-testid="estimate-decision">
              {t(`docs.public.decided.${est.state}`, { name: est.decided_by_name ?? '', date: formatDateTime(est.decided_at, i18n.language) })}
              {est.decision_note ? <MultilineText text={est.decision_note} /> : null}
            </Alert>
          ) : (
            <Card variation="outlined">
              <form
                noValidate
                data-testid="decision-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  submit('approve');
                }}
              >
                <Flex direction="column" gap="small">
                  <Heading level={5}>{t('docs.public.decide')}</Heading>
                  <ErrorAlert error={error && Object.keys(error.fields).length === 0 ? error : null} onDismiss={() => setError(null)} />
                  <TextField label={t('docs.public.yourName')} name="name" isRequired autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} hasError={!!fieldError('name')} errorMessage={fieldError('name')} />
                  <TextAreaField label={t('docs.public.note')} name="note" rows={2} value={note} onChange={(e) => setNote(e.target.value)} hasError={!!fieldError('note')} errorMessage={fieldError('note')} />
                  <Flex gap="small" wrap="wrap">
                    <Button type="submit" variation="primary" isLoading={decide.isPending && decide.variables === 'approve'} data-testid="approve-estimate">
                      {t('docs.public.approve')}
                    </Button>
                    <Button type="button" variation="destructive" onClick={() => submit('refuse')} isLoading={decide.isPending && decide.variables === 'refuse'} data-testid="refuse-estimate">
                      {t('docs.public.refuse')}
                    </Button>
                  </Flex>
                </Flex>
              </form>
            </Card>
          )}
        </Flex>
      )}
    </Page>
  );
}
