// account#new (SPEC §2 "Group selection and creation"): create a Group; the
// server refuses past the free-Group limits (SPEC §6, §8) and the alert says
// which. The new Group's dashboard opens once the session knows its role.

import { Alert, Card, Text } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/Page';
import { isEmailConfirmed, useCurrentUser } from '../../../lib/current-user';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { sessionQuery, useSession } from '../../../lib/session';
import { setMultipleAccounts } from '../../../lib/startup';
import { createAccount } from '../api/accounts';
import { GroupForm } from '../components/GroupForm';

export function Component() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const session = useSession();
  const user = useCurrentUser();
  const m = useMutation({
    mutationFn: (name: string) => createAccount({ name }),
    onSuccess: async (res) => {
      await qc.fetchQuery({ ...sessionQuery, staleTime: 0 });
      await qc.invalidateQueries({ queryKey: ['memberships', session?.userId] });
      setMultipleAccounts(false);
      navigate(paths.dashboard(res.id));
    },
  });
  return (
    <Page title={t('accounts.new.title')} width="narrow">
      <Card variation="outlined">
        <Text variation="secondary" marginBottom="medium">
          {t('accounts.new.help')}
        </Text>
        {user.data && !isEmailConfirmed(user.data) ? (
          <Alert variation="info" marginBottom="medium" data-testid="free-limit-unconfirmed">
            {t('accounts.new.unconfirmedLimit')}
          </Alert>
        ) : null}
        <GroupForm
          onSubmit={(name) => m.mutate(name)}
          saving={m.isPending}
          error={m.error ? asApiError(m.error) : null}
          onDismissError={() => m.reset()}
          submitLabel={t('accounts.new.submit')}
        />
      </Card>
    </Page>
  );
}
