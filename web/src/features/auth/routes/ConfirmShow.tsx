// confirm#show: follow the e-mailed link. The token is single-use, so it is
// sent once (a query keyed by the token, never retried) and the screen then
// shows the confirmed page or why it failed.

import { Alert, Flex } from '@aws-amplify/ui-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { PageLoader } from '../../../components/PageLoader';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { confirmEmail } from '../api/confirm';
import { AuthCard } from '../components/AuthCard';

export function Component() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const session = useSession();
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: ['confirm-email', token],
    queryFn: () => confirmEmail(token),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  useEffect(() => {
    if (q.data?._id) qc.setQueryData(['user', q.data._id], q.data);
  }, [q.data, qc]);

  return (
    <AuthCard title={q.isSuccess ? t('auth.confirm.doneTitle') : t('auth.confirm.showTitle')}>
      {q.isPending ? <PageLoader /> : null}
      {q.isSuccess ? (
        <Flex direction="column" gap="medium" data-testid="confirmed">
          <Alert variation="success">{t('auth.confirm.done', { email: q.data.email ?? '' })}</Alert>
          <ButtonLink to={session ? paths.app() : paths.login()} variation="primary">
            {session ? t('auth.confirm.continue') : t('auth.login.submit')}
          </ButtonLink>
        </Flex>
      ) : null}
      {q.isError ? (
        <Flex direction="column" gap="medium">
          {asApiError(q.error).status === 401 ? (
            // A new address is confirmed only by the signed-in user who asked
            // for it; the link stays valid, so sign in and come back to it.
            <ButtonLink to={paths.login(paths.confirmShow(token))} variation="primary">
              {t('auth.confirm.signInToConfirm')}
            </ButtonLink>
          ) : (
            <ErrorAlert error={asApiError(q.error)} />
          )}
          <AppLink to={paths.confirmNew()}>{t('auth.confirm.requestNew')}</AppLink>
        </Flex>
      ) : null}
    </AuthCard>
  );
}
