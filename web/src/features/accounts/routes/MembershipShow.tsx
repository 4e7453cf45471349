// memberships#show (SPEC §2 "Membership detail"): title Membership, the New
// button, Edit only when allowed, delete, the not-found empty state, and the
// details with the comments and history panels.

import { Badge, Button } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { CommentsList } from '../../../components/records/CommentsList';
import { ConfirmDelete } from '../../../components/records/ConfirmDelete';
import { HistoryList } from '../../../components/records/HistoryList';
import { DetailList, RecordShow } from '../../../components/records/RecordShow';
import { AppLink, ButtonLink } from '../../../components/RouterLink';
import { useIsAdmin } from '../../../lib/accounts';
import { asApiError } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { isPendingMembership } from '../../../lib/memberships';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { mailSuppressedQuery, membershipQuery, removeMembership } from '../api/memberships';
import { canEditMembership, MailSuppressedMarker, MembershipCrumbs, NewMembershipButton } from '../components/MembershipParts';

export function Component() {
  const { t, i18n } = useTranslation();
  const { account_id: db = '', record_id: id = '' } = useParams();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const session = useSession();
  const { admin } = useIsAdmin(db);
  const q = useQuery(membershipQuery(db, id));
  const suppressed = useQuery(mailSuppressedQuery(db));
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: () => removeMembership(db, q.data!),
    onSuccess: async () => {
      setConfirming(false);
      await qc.invalidateQueries({ queryKey: ['group-memberships', db] });
      navigate(paths.index(db, 'memberships'));
    },
  });
  const m = q.data;
  const error = q.isError ? asApiError(q.error) : null;
  const missing = !!error && (error.status === 404 || error.status === 403) || (!!m && m.klass !== undefined && m.klass !== 'Membership');
  const allowed = canEditMembership(admin, m, session);
  const yes = (v: unknown) => (v === true ? t('common.yes') : t('common.no'));
  const user = m?.user as { _id?: string; label?: string } | undefined;

  return (
    <Page
      title={t('accounts.memberships.title')}
      breadcrumbs={<MembershipCrumbs db={db} current={m?.email} />}
      actions={
        <>
          <NewMembershipButton db={db} />
          {m && allowed && !missing ? (
            <>
              <ButtonLink to={paths.edit(db, 'memberships', id)} size="small" data-testid="edit-membership">
                <AppIcon name="edit" /> {t('records.edit')}
              </ButtonLink>
              <Button size="small" variation="destructive" onClick={() => setConfirming(true)} data-testid="delete-membership">
                <AppIcon name="trash" /> {t('records.delete')}
              </Button>
            </>
          ) : null}
        </>
      }
    >
      {missing ? (
        <EmptyState
          icon="search"
          title={t('errors.titles.not_found')}
          message={t('errors.messages.could-not-find-this-member-subscription')}
          testId="membership-not-found"
        />
      ) : (
        <>
          {error ? <ErrorAlert error={error} onDismiss={() => void q.refetch()} /> : null}
          <ErrorAlert error={del.error ? asApiError(del.error) : null} onDismiss={() => del.reset()} />
          <MailSuppressedMarker suppression={suppressed.data?.[id]} detail />
          <RecordShow
            details={
              <DetailList
                loading={q.isPending}
                rows={
                  m
                    ? [
                        {
                          key: 'email',
                          label: 'fields.email',
                          value: (
                            <>
                              {m.email} <MailSuppressedMarker suppression={suppressed.data?.[id]} />
                            </>
                          ),
                        },
                        {
                          key: 'user',
                          label: 'fields.user',
                          value: user?._id ? <AppLink to={paths.show(db, 'users', user._id)}>{user.label || user._id}</AppLink> : '',
                        },
                        {
                          key: 'status',
                          label: 'fields.status',
                          value: (
                            <Badge size="small" variation={isPendingMembership(m) ? 'warning' : 'success'}>
                              {t(`accounts.memberships.status.${isPendingMembership(m) ? 'pending' : 'accepted'}`)}
                            </Badge>
                          ),
                        },
                        { key: 'editor', label: 'fields.editor', value: yes(m.editor) },
                        { key: 'report_view', label: 'fields.report_view', value: yes(m.report_view) },
                        { key: 'created_at', label: 'fields.created_at', value: formatDateTime(m.created_at, i18n.language) },
                        { key: 'updated_at', label: 'fields.updated_at', value: formatDateTime(m.updated_at, i18n.language) },
                      ]
                    : []
                }
              />
            }
            // By the membership's id: read with it, in its batch (lib/batch.ts).
            comments={<CommentsList db={db} itemId={id} />}
            history={<HistoryList db={db} itemId={id} />}
          />
        </>
      )}
      <ConfirmDelete open={confirming} onCancel={() => setConfirming(false)} onConfirm={() => del.mutate()} busy={del.isPending} what={m?.email ?? id} />
    </Page>
  );
}
