// users#show (SPEC §2): a member of this Group as the Group sees them — read
// from their membership here (by user_id, limit 1, SPEC §7).

import { Card, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { Page } from '../../../components/Page';
import { DetailList } from '../../../components/records/RecordShow';
import { AppLink } from '../../../components/RouterLink';
import { UserAvatar } from '../../../components/UserAvatar';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { membershipOfUserQuery } from '../api/memberships';
import { AdminCrumbs } from '../components/AdminCrumbs';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const q = useQuery(membershipOfUserQuery(db, id));
  const m = q.data;
  const user = m?.user as { _id?: string; label?: string } | undefined;
  const name = user?.label || m?.email || id;
  return (
    <Page title={t('accounts.user')} width="medium" breadcrumbs={<AdminCrumbs db={db} trail={[{ label: t('nav.memberships'), to: paths.index(db, 'memberships') }, { label: name }]} />}>
      {!q.isPending && !m ? (
        <EmptyState icon="user" title={t('errors.titles.not_found')} message={t('accounts.userNotFound')} testId="user-not-found" />
      ) : (
        <Card variation="outlined">
          <Flex gap="large" alignItems="center" wrap="wrap">
            <UserAvatar email={m?.email ?? null} name={user?.label ?? null} size={80} />
            <Flex direction="column" gap="xs" flex="1">
              <Heading level={4}>{name}</Heading>
              <Text variation="secondary">{m?.email}</Text>
              <DetailList
                loading={q.isPending}
                rows={[
                  { key: 'id', label: 'fields._id', value: <code>{id}</code> },
                  { key: 'editor', label: 'fields.editor', value: m?.editor ? t('common.yes') : t('common.no') },
                  { key: 'created_at', label: 'fields.created_at', value: formatDateTime(m?.created_at, i18n.language) },
                  { key: 'membership', label: 'nav.memberships', value: m ? <AppLink to={paths.show(db, 'memberships', m._id)}>{m._id}</AppLink> : '' },
                ]}
              />
            </Flex>
          </Flex>
        </Card>
      )}
    </Page>
  );
}
