import { describe, expect, it } from 'vitest';
import { mainItems, othersMenu } from './nav-items';

const keys = (items: Array<{ key: string }>) => items.map((i) => i.key);

describe('navbar items per module (SPEC §2)', () => {
  it('dashboard always, then each module entries', () => {
    expect(keys(mainItems('ticket', 'acc-1'))).toEqual(['dashboard', 'tickets', 'customers', 'equipment', 'handbooks']);
    expect(keys(mainItems('organize3', 'acc-1'))).toEqual(['dashboard', 'outgos', 'incomes', 'transfers', 'exchanges', 'wallets']);
    expect(keys(mainItems('exoreader', 'acc-1'))).toEqual(['dashboard', 'reader_subscriptions', 'reader_items', 'reader_labels']);
    expect(keys(mainItems('rdisk', 'acc-1'))).toEqual(['dashboard', 'disk']);
    expect(keys(mainItems('textnotes', 'acc-1'))).toEqual(['dashboard', 'disk', 'handbooks', 'bookmarks']);
  });

  it('tickets carry the open-ticket counter and links are account paths', () => {
    const tickets = mainItems('ticket', 'acc-1').find((i) => i.key === 'tickets');
    expect(tickets?.counter).toBe('open-tickets');
    expect(tickets?.to).toBe('/account/acc-1/tickets');
  });

  it('the Others menu and its admin group', () => {
    const m = othersMenu('acc-1', { rdisk: true });
    expect(keys(m.items)).toEqual(['estimates', 'contracts', 'maintenances', 'wallets', 'categories', 'mappings', 'disk']);
    expect(keys(m.admin)).toEqual(['admin', 'memberships', 'groups', 'billing', 'usage']);
    expect(keys(othersMenu('acc-1', { rdisk: false }).items)).not.toContain('disk');
  });
});
