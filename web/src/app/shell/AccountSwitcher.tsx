// The account switcher (SPEC §2 "Navigation bar"): the user's memberships
// without the pending ones and the current Group, each with its plan icon and
// its name truncated at 10em, plus "create group profile".

import { Divider, Menu, MenuButton, MenuItem, VisuallyHidden } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AppIcon, type IconName } from '../../components/icons';
import { planOf, switchable, useMemberships } from '../../lib/accounts';
import { accountOf } from '../../lib/memberships';
import { paths } from '../../lib/paths';

const PLAN_ICONS: Record<string, IconName> = { free: 'groups', pro: 'star', corp: 'admin', server: 'disk', locked: 'lock' };

export function planIcon(plan: string): IconName {
  return PLAN_ICONS[plan] ?? 'plan';
}

export function AccountSwitcher({ current }: { current: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const memberships = useMemberships().data ?? [];
  const here = memberships.find((m) => accountOf(m) === current);
  const others = switchable(memberships, current);
  return (
    <Menu
      trigger={
        <MenuButton size="small" variation="link" data-testid="account-switcher" aria-label={t('nav.switchGroup')}>
          <AppIcon name={here ? planIcon(planOf(here)) : 'groups'} />
          <span className="truncate-10em navbar__group-name">{here?.name || t('nav.groupsMenu')}</span>
          <VisuallyHidden>{t('nav.switchGroup')}</VisuallyHidden>
        </MenuButton>
      }
    >
      {others.map((m) => (
        <MenuItem key={m._id} onClick={() => navigate(paths.dashboard(accountOf(m)))} data-testid="switch-group" title={m.name}>
          <span title={t(`plans.${planOf(m)}`, { defaultValue: planOf(m) })} className="switcher__plan" data-plan={planOf(m)}>
            <AppIcon name={planIcon(planOf(m))} />
          </span>
          <span className="truncate-10em">{m.name || accountOf(m)}</span>
        </MenuItem>
      ))}
      {others.length > 0 ? <Divider /> : null}
      <MenuItem onClick={() => navigate(paths.accountNew())} data-testid="switch-create-group">
        <AppIcon name="plus" /> {t('home.selectGroup.create')}
      </MenuItem>
    </Menu>
  );
}
