// The admin dashboard's tiles by app (SPEC §2 Admin), as data so a test pins
// them to the spec.

import type { IconName } from '../../components/icons';
import type { AppModule } from '../../lib/module';
import { paths } from '../../lib/paths';

export interface Tile {
  key: string;
  /** i18n key of the label. */
  label: string;
  to: string;
  icon: IconName;
  /** The klass whose record count the tile shows (count-by-klass). */
  klass?: string;
}

const set = (db: string, s: string, icon: IconName, klass?: string): Tile => ({
  key: s,
  label: `nav.${s}`,
  to: paths.index(db, s),
  icon,
  ...(klass ? { klass } : {}),
});

export function adminTiles(module: AppModule, db: string, opts: { hasSubGroups: boolean }): Tile[] {
  const tiles: Tile[] = [];
  if (module === 'exoreader') {
    tiles.push(
      set(db, 'reader_items', 'reader', 'ReaderItem'),
      set(db, 'reader_subscriptions', 'subscription', 'ReaderSubscription'),
      set(db, 'reader_labels', 'label', 'ReaderLabel'),
    );
  }
  if (module === 'organize3') {
    tiles.push(
      set(db, 'outgos', 'outgo', 'Outgo'),
      set(db, 'incomes', 'income', 'Income'),
      set(db, 'transfers', 'transfer', 'Transfer'),
      set(db, 'exchanges', 'exchange', 'Exchange'),
      set(db, 'wallets', 'wallet', 'Wallet'),
    );
  }
  if (module === 'ticket') {
    tiles.push(
      set(db, 'tickets', 'ticket', 'Ticket'),
      set(db, 'customers', 'customer', 'Customer'),
      set(db, 'equipment', 'equipment', 'Equipment'),
      set(db, 'maintenances', 'maintenance', 'Maintenance'),
      set(db, 'estimates', 'estimate', 'Estimate'),
      set(db, 'categories', 'category', 'Category'),
      set(db, 'contracts', 'contract', 'Contract'),
    );
  }
  if (module === 'ticket' || module === 'textnotes') tiles.push(set(db, 'handbooks', 'handbook', 'Handbook'));
  if (module === 'ticket' || module === 'rdisk' || module === 'textnotes') {
    tiles.push({ key: 'disk', label: 'nav.disk', to: paths.disk(), icon: 'disk', klass: 'CloudFile' });
  }
  tiles.push(
    set(db, 'memberships', 'members', 'Membership'),
    { key: 'billing', label: 'nav.billing', to: paths.billing(), icon: 'billing' },
    { key: 'usage', label: 'nav.usage', to: paths.usage(), icon: 'usage' },
  );
  if (opts.hasSubGroups) tiles.push({ key: 'groups', label: 'nav.groups', to: paths.index(db, 'groups'), icon: 'groups' });
  return tiles;
}
