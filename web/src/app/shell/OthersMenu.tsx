// The "Others" menu (SPEC §2): the less frequent sets and the admin group,
// and first the navbar's own items that do not fit its row (issue 22 item 10).

import { Divider, Menu, MenuButton, MenuItem, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AppIcon } from '../../components/icons';
import type { NavItem, OthersMenu as OthersMenuItems } from './nav-items';

export function OthersMenu({ others, moved = [] }: { others: OthersMenuItems; moved?: readonly NavItem[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Menu
      trigger={
        <MenuButton size="small" variation="link" data-testid="nav-others">
          <AppIcon name="more" /> {t('nav.others')}
        </MenuButton>
      }
    >
      {moved.map((item) => (
        <MenuItem key={item.key} onClick={() => navigate(item.to)} data-testid={`others-moved-${item.key}`}>
          <AppIcon name={item.icon} /> {t(item.label)}
        </MenuItem>
      ))}
      {moved.length > 0 ? <Divider /> : null}
      {others.items.map((item) => (
        <MenuItem key={item.key} onClick={() => navigate(item.to)} data-testid={`others-${item.key}`}>
          <AppIcon name={item.icon} /> {t(item.label)}
        </MenuItem>
      ))}
      <Divider />
      <Text fontSize="small" variation="tertiary" paddingInline="medium" as="div">
        {t('nav.adminGroup')}
      </Text>
      {others.admin.map((item) => (
        <MenuItem key={item.key} onClick={() => navigate(item.to)} data-testid={`others-${item.key}`}>
          <AppIcon name={item.icon} /> {t(item.label)}
        </MenuItem>
      ))}
    </Menu>
  );
}
