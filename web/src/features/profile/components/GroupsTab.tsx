// The groups tab (SPEC §2 Profile): the accepted memberships from the
// personal db's mirror, each with bookmark controls, and a refresh link.

import { Badge, Button, Flex, Table, TableBody, TableCell, TableRow } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { AppLink } from '../../../components/RouterLink';
import { planOf, useMemberships } from '../../../lib/accounts';
import { asApiError } from '../../../lib/errors';
import { accountOf, isPendingMembership, type Membership } from '../../../lib/memberships';
import { paths } from '../../../lib/paths';
import { setBookmark } from '../api/memberships';
import { RefreshLink, TabPlaceholder } from './TabParts';
import { HeadRow } from '../../../components/HeadRow';

export function GroupsTab({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const q = useMemberships();
  const groups = (q.data ?? []).filter((m) => !isPendingMembership(m));
  const bookmark = useMutation({
    mutationFn: (m: Membership) => setBookmark(userId, m._id, !m.bookmark),
    onSettled: () => qc.invalidateQueries({ queryKey: ['memberships', userId] }),
  });
  const refresh = () => void q.refetch();

  if (q.isPending) return <TabPlaceholder />;
  return (
    <Flex direction="column" gap="small" data-testid="tab-groups">
      <RefreshLink onClick={refresh} busy={q.isFetching} />
      {q.isError ? <ErrorAlert error={asApiError(q.error)} /> : null}
      <ErrorAlert error={bookmark.error ? asApiError(bookmark.error) : null} onDismiss={() => bookmark.reset()} />
      {groups.length === 0 ? (
        <EmptyState
          icon="groups"
          title={t('profile.tabs.groupsEmpty')}
          message={t('profile.tabs.groupsHelp')}
          testId="tab-groups-empty"
          action={<AppLink to={paths.accountNew()}>{t('accounts.createGroup')}</AppLink>}
        />
      ) : (
        <div className="table-scroll">
          <Table size="small" highlightOnHover aria-label={t('profile.tabs.groups')}>
            <HeadRow cells={[t('fields.name'), t('profile.groups.plan'), t('profile.groups.role'), t('profile.groups.bookmark')]} />
            <TableBody>
              {groups.map((m) => (
                <TableRow key={m._id} data-testid="group-row">
                  <TableCell>
                    <AppLink to={paths.dashboard(accountOf(m))}>{m.name || accountOf(m)}</AppLink>
                  </TableCell>
                  <TableCell>
                    <Badge size="small">{t(`plans.${planOf(m)}`, { defaultValue: planOf(m) })}</Badge>
                  </TableCell>
                  <TableCell>{m.editor ? t('profile.groups.admin') : t('profile.groups.member')}</TableCell>
                  <TableCell>
                    <Button
                      size="small"
                      variation={m.bookmark ? 'primary' : undefined}
                      aria-pressed={m.bookmark === true}
                      isLoading={bookmark.isPending && bookmark.variables?._id === m._id}
                      onClick={() => bookmark.mutate(m)}
                      data-testid="bookmark-toggle"
                    >
                      <AppIcon name="bookmark" /> {m.bookmark ? t('profile.groups.unbookmark') : t('profile.groups.bookmarkIt')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </Flex>
  );
}
