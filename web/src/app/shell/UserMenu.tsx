// The user menu (SPEC §2): profile, module switch (SPEC §6 rules), language
// switch, newsletter preferences and logout.

import { Divider, Menu, MenuButton, MenuItem, Text, VisuallyHidden } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AppIcon } from '../../components/icons';
import { LOCALES, normalizeLocale } from '../../lib/i18n';
import { setModule, useModule, type AppModule } from '../../lib/module';
import { paths } from '../../lib/paths';
import { useChangeLocale } from '../../lib/use-change-locale';

export function UserMenu({ modules, onLogout, userLabel }: { modules: AppModule[]; onLogout: () => void; userLabel: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const current = useModule();
  const changeLocale = useChangeLocale();
  const lang = normalizeLocale(i18n.language) ?? 'en';
  return (
    <Menu
      menuAlign="end"
      trigger={
        <MenuButton size="small" variation="menu" data-testid="user-menu" aria-label={t('nav.userMenu')}>
          <AppIcon name="user" />
          <span className="navbar__user-label">{userLabel}</span>
        </MenuButton>
      }
    >
      <MenuItem onClick={() => navigate(paths.profile())} data-testid="menu-profile">
        <AppIcon name="user" /> {t('nav.profile')}
      </MenuItem>
      <MenuItem onClick={() => navigate(paths.newsletter())}>
        <AppIcon name="newsletter" /> {t('nav.newsletter')}
      </MenuItem>
      <Divider />
      <Text fontSize="small" variation="tertiary" paddingInline="medium" as="div">
        {t('nav.modules')}
      </Text>
      {modules.map((m) => (
        <MenuItem
          key={m}
          onClick={() => setModule(m)}
          aria-checked={m === current}
          role="menuitemradio"
          data-testid={`module-${m}`}
        >
          <span className="menu-check">{m === current ? <AppIcon name="check" /> : null}</span>
          {t(`modules.${m}`)}
        </MenuItem>
      ))}
      <Divider />
      <Text fontSize="small" variation="tertiary" paddingInline="medium" as="div">
        {t('common.language')}
      </Text>
      {LOCALES.map((l) => (
        <MenuItem
          key={l}
          onClick={() => void changeLocale(l)}
          aria-checked={l === lang}
          role="menuitemradio"
          data-testid={`locale-${l}`}
        >
          <span className="menu-check">{l === lang ? <AppIcon name="check" /> : null}</span>
          {t(`languages.${l}`)}
        </MenuItem>
      ))}
      <Divider />
      <MenuItem onClick={onLogout} data-testid="menu-logout">
        <AppIcon name="logout" /> {t('nav.logout')}
        <VisuallyHidden>{userLabel}</VisuallyHidden>
      </MenuItem>
    </Menu>
  );
}
