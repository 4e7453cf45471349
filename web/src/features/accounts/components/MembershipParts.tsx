// Pieces the membership screens share (SPEC §2 "Membership detail"): the
// breadcrumb Dashboard > Admin > Memberships, the New button (disabled until
// the email is confirmed) and who may edit.

import { Alert, Badge, Button, Flex, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';
import { ButtonLink } from '../../../components/RouterLink';
import { useIsAdmin } from '../../../lib/accounts';
import { isEmailConfirmed, useCurrentUser } from '../../../lib/current-user';
import type { Membership } from '../../../lib/memberships';
import { paths } from '../../../lib/paths';
import type { Session } from '../../../lib/session';
import type { MailSuppression } from '../api/memberships';
import { AdminCrumbs } from './AdminCrumbs';

export function MembershipCrumbs({ db, current }: { db: string; current?: string }) {
  const { t } = useTranslation();
  const trail: Array<{ label: string; to?: string }> = [{ label: t('nav.memberships'), to: paths.index(db, 'memberships') }];
  if (current) trail.push({ label: current });
  return <AdminCrumbs db={db} trail={trail} />;
}

export const CONFIRM_EMAIL_MESSAGE = 'errors.messages.you-need-to-confirm-your-email-to-use-this-feature';

export function NewMembershipButton({ db }: { db: string }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { admin, loading } = useIsAdmin(db);
  // Offered only to who may use it; otherwise disabled, with the reason.
  const reason = !loading && !admin ? t('accounts.memberships.adminsOnly') : user.data && !isEmailConfirmed(user.data) ? t(CONFIRM_EMAIL_MESSAGE) : null;
  if (reason) {
    return (
      <Flex direction="column" alignItems="flex-end" gap="xxs">
        <Button size="small" variation="primary" isDisabled data-testid="new-membership" title={reason}>
          <AppIcon name="plus" /> {t('records.new')}
        </Button>
        <Text fontSize="small" variation="warning" data-testid="new-membership-disabled">
          {reason}
        </Text>
      </Flex>
    );
  }
  return (
    <ButtonLink to={paths.create(db, 'memberships')} size="small" variation="primary" data-testid="new-membership">
      <AppIcon name="plus" /> {t('records.new')}
    </ButtonLink>
  );
}

/**
 * canEditMembership (SPEC §6): the user administers the Group and the
 * membership is not their own (a member never changes their own, SPEC §5).
 */
export function canEditMembership(admin: boolean, m: Membership | undefined, session: Session | null): boolean {
  if (!m || !session) return false;
  return admin && m.user_id !== session.userId;
}

/**
 * The marker of a member the app no longer mails (SES reported a hard
 * bounce or a spam complaint): a badge in the member list, whose title
 * says why; with detail, the explanation under the membership's details.
 */
export function MailSuppressedMarker({ suppression, detail }: { suppression?: MailSuppression; detail?: boolean }) {
  const { t } = useTranslation();
  if (!suppression) return null;
  const reason = suppression.reason === 'complaint' ? 'complaint' : 'bounce';
  const help = t(`accounts.memberships.mailSuppressed.${reason}Help`, { address: suppression.address });
  if (detail) {
    return (
      <Alert variation="warning" heading={t(`accounts.memberships.mailSuppressed.${reason}`)} data-testid="mail-suppressed-alert">
        {help}
      </Alert>
    );
  }
  return (
    <Badge size="small" variation="error" title={help} data-testid="mail-suppressed">
      <AppIcon name="mail" /> {t(`accounts.memberships.mailSuppressed.${reason}`)}
    </Badge>
  );
}
