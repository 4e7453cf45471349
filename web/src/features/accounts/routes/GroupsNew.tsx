// groups#new (SPEC §2): a sub-group of this Group; the server allows it only
// to an admin of a corp parent ("Permission denied" otherwise).

import { Card, Text } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Page } from '../../../components/Page';
import { asApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { sessionQuery } from '../../../lib/session';
import { createAccount } from '../api/accounts';
import { AdminCrumbs } from '../components/AdminCrumbs';
import { GroupForm } from '../components/GroupForm';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const m = useMutation({
    mutationFn: (name: string) => createAccount({ name, parentId: db }),
    onSuccess: async () => {
      await qc.fetchQuery({ ...sessionQuery, staleTime: 0 });
      await qc.invalidateQueries({ queryKey: ['memberships'] });
      await qc.invalidateQueries({ queryKey: ['sub-groups'] });
      navigate(paths.index(db, 'groups'));
    },
  });
  return (
    <Page
      title={t('accounts.groupsNew')}
      width="narrow"
      breadcrumbs={<AdminCrumbs db={db} trail={[{ label: t('nav.groups'), to: paths.index(db, 'groups') }, { label: t('records.new') }]} />}
    >
      <Card variation="outlined">
        <Text variation="secondary" marginBottom="medium">
          {t('accounts.groups.newHelp')}
        </Text>
        <GroupForm
          onSubmit={(name) => m.mutate(name)}
          saving={m.isPending}
          error={m.error ? asApiError(m.error) : null}
          onDismissError={() => m.reset()}
          submitLabel={t('accounts.groups.create')}
        />
      </Card>
    </Page>
  );
}
