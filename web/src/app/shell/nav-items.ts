// The navbar's menu items per module and the "Others" menu (SPEC §2
// "Navigation bar"), as data so a test pins them to the spec.

import type { IconName } from '../../components/icons';
import type { AppModule } from '../../lib/module';
import { paths } from '../../lib/paths';

export interface NavItem {
  key: string;
  /** i18n key of the label. */
  label: string;
  to: string;
  icon: IconName;
  counter?: 'open-tickets';
}

const set = (accountId: string, s: string, icon: IconName, counter?: 'open-tickets'): NavItem => ({
  key: s,
  label: `nav.${s}`,
  to: paths.index(accountId, s),
  icon,
  ...(counter ? { counter } : {}),
});

const disk = (): NavItem => ({ key: 'disk', label: 'nav.disk', to: paths.disk(), icon: 'disk' });

/** mainItems: dashboard always, then the module's own entries. */
export function mainItems(module: AppModule, accountId: string): NavItem[] {
  const items: NavItem[] = [{ key: 'dashboard', label: 'nav.dashboard', to: paths.dashboard(accountId), icon: 'dashboard' }];
  switch (module) {
    case 'ticket':
      items.push(
        set(accountId, 'tickets', 'ticket', 'open-tickets'),
        set(accountId, 'customers', 'customer'),
        set(accountId, 'equipment', 'equipment'),
        set(accountId, 'handbooks', 'handbook'),
      );
      break;
    case 'organize3':
      items.push(
        set(accountId, 'outgos', 'outgo'),
        set(accountId, 'incomes', 'income'),
        set(accountId, 'transfers', 'transfer'),
        set(accountId, 'exchanges', 'exchange'),
        set(accountId, 'wallets', 'wallet'),
      );
      break;
    case 'exoreader':
      items.push(
        set(accountId, 'reader_subscriptions', 'subscription'),
        set(accountId, 'reader_items', 'reader'),
        set(accountId, 'reader_labels', 'label'),
      );
      break;
    case 'rdisk':
      items.push(disk());
      break;
    case 'textnotes':
      items.push(disk(), set(accountId, 'handbooks', 'handbook'), { key: 'bookmarks', label: 'nav.bookmarks', to: paths.bookmarks(accountId), icon: 'bookmark' });
      break;
  }
  return items;
}

export interface OthersMenu {
  items: NavItem[];
  admin: NavItem[];
}

/** othersMenu: the "Others" menu with its admin group; disk only when the rdisk flag is on. */
export function othersMenu(accountId: string, opts: { rdisk: boolean }): OthersMenu {
  const items = [
    set(accountId, 'estimates', 'estimate'),
    set(accountId, 'contracts', 'contract'),
    set(accountId, 'maintenances', 'maintenance'),
    set(accountId, 'wallets', 'wallet'),
    set(accountId, 'categories', 'category'),
    set(accountId, 'mappings', 'mapping'),
  ];
  if (opts.rdisk) items.push(disk());
  const admin: NavItem[] = [
    { key: 'admin', label: 'nav.admin', to: paths.admin(accountId), icon: 'admin' },
    set(accountId, 'memberships', 'members'),
    { key: 'groups', label: 'nav.groups', to: paths.index(accountId, 'groups'), icon: 'groups' },
    { key: 'billing', label: 'nav.billing', to: paths.billing(), icon: 'billing' },
    { key: 'usage', label: 'nav.usage', to: paths.usage(), icon: 'usage' },
  ];
  return { items, admin };
}
