// user#profile?page= (SPEC §2): profile (default), data, groups, invites,
// user_tokens; the tab lives in the URL.

import { Tabs } from '@aws-amplify/ui-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { useCurrentUser } from '../../../lib/current-user';
import { asApiError } from '../../../lib/errors';
import { useSession } from '../../../lib/session';
import { DataTab } from '../components/DataTab';
import { GroupsTab } from '../components/GroupsTab';
import { InvitesTab } from '../components/InvitesTab';
import { ProfileTab } from '../components/ProfileTab';
import { TokensTab } from '../components/TokensTab';

export const PROFILE_TABS = ['profile', 'data', 'groups', 'invites', 'user_tokens'] as const;
export type ProfileTabName = (typeof PROFILE_TABS)[number];

export function tabOf(v: string | null): ProfileTabName {
  return (PROFILE_TABS as readonly string[]).includes(v ?? '') ? (v as ProfileTabName) : 'profile';
}

export function Component() {
  const { t } = useTranslation();
  const [sp, setSp] = useSearchParams();
  const tab = tabOf(sp.get('page'));
  const session = useSession();
  const user = useCurrentUser();
  // On a phone the tab list scrolls sideways: the active tab is brought into
  // view, as opened from a link to ?page=user_tokens (issue 22 item 15).
  const tabs = useRef<HTMLDivElement>(null);
  useEffect(() => {
    tabs.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
  }, [tab]);

  const content: Record<ProfileTabName, React.ReactNode> = {
    profile: <ProfileTab user={user.data} loading={user.isPending} onChanged={() => user.refetch()} />,
    data: <DataTab user={user.data} loading={user.isPending} />,
    groups: session ? <GroupsTab userId={session.userId} /> : null,
    invites: session ? <InvitesTab userId={session.userId} user={user.data} /> : null,
    user_tokens: session ? <TokensTab userId={session.userId} /> : null,
  };

  return (
    <Page title={t('profile.title')} width="medium">
      {user.isError ? <ErrorAlert error={asApiError(user.error)} onDismiss={() => void user.refetch()} /> : null}
      <div ref={tabs} data-testid="profile-tabs">
      <Tabs
        value={tab}
        onValueChange={(v) => setSp(v === 'profile' ? {} : { page: v }, { replace: true })}
        items={PROFILE_TABS.map((name) => ({
          value: name,
          label: t(`profile.tabs.${name}`),
          content: <div className="tab-panel">{name === tab ? content[name] : null}</div>,
        }))}
      />
      </div>
    </Page>
  );
}
