// Pure rules of the Group screens: the confirmation countdown, the timeline's
// cards, the balances, the admin tiles by app and the phone/address lists.

import { describe, expect, it } from 'vitest';
import { fetchBalances, positiveBalances } from './api/balances';
import { ownEvent } from '../../lib/history';
import { fetchTimeline, toCards } from './api/timeline';
import { api } from '../../lib/api';
import { ADDRESS_FIELDS, parseContacts, PHONE_FIELDS, removeContact, upsertContact } from './contacts';
import { confirmationDeadline } from './deadline';
import { adminTiles } from './tiles';
import { json, mockFetch } from '../../test/utils';

const DAY = 24 * 60 * 60 * 1000;
const SENT = '2025-03-01T12:00:00.000Z';
const at = (days: number) => Date.parse(SENT) + days * DAY;

describe('email confirmation countdown (SPEC §9)', () => {
  it('counts 30 days from the confirmation sent date', () => {
    expect(confirmationDeadline(SENT, at(0))).toEqual({ kind: 'days', days: 30 });
    expect(confirmationDeadline(SENT, at(10.5))).toEqual({ kind: 'days', days: 19 });
    expect(confirmationDeadline(SENT, at(28))).toEqual({ kind: 'days', days: 2 });
  });
  it('reads in the singular under 2 days, and over after 30', () => {
    expect(confirmationDeadline(SENT, at(28.01))).toEqual({ kind: 'one' });
    expect(confirmationDeadline(SENT, at(29.99))).toEqual({ kind: 'one' });
    expect(confirmationDeadline(SENT, at(30))).toEqual({ kind: 'over' });
    expect(confirmationDeadline(null, at(1))).toEqual({ kind: 'unknown' });
  });
});

describe('timeline (SPEC §7)', () => {
  it('reads the last 20 changes, newest first, in one read (no db info first)', async () => {
    const get = vi.spyOn(api, 'get').mockResolvedValue({ last_seq: 0, results: [] });
    expect(await fetchTimeline('acc-1')).toEqual([]);
    expect(get).toHaveBeenCalledTimes(1);
    expect(get).toHaveBeenCalledWith('acc-1/_changes', { include_docs: true, descending: true, limit: 20 });
  });

  it('DocumentChange docs are the cards, newest first', () => {
    const cards = toCards({
      last_seq: 9,
      results: [
        { seq: 3, id: 'tik-1', changes: [{ rev: '1-a' }], doc: { _id: 'tik-1', klass: 'Ticket' } },
        {
          seq: 4,
          id: 'ver-1',
          changes: [{ rev: '1-b' }],
          doc: { _id: 'ver-1', klass: 'DocumentChange', item_id: 'tik-1', item_type: 'Ticket', event: 'create', label: 'Screen broken', whodunnit: { _id: 'usr-1', label: 'Ana' } },
        },
        {
          seq: 8,
          id: 'ver-2',
          changes: [{ rev: '1-c' }],
          doc: { _id: 'ver-2', klass: 'DocumentChange', item_id: 'tik-1', item_type: 'Ticket', event: 'status', changed: ['status'] },
        },
      ],
    });
    expect(cards.map((c) => [c.itemId, c.event, c.key])).toEqual([
      ['tik-1', 'status', 'ver-2-8'],
      ['tik-1', 'create', 'ver-1-4'],
    ]);
    expect(cards[1]?.who).toEqual({ _id: 'usr-1', label: 'Ana' });
  });

  it('keeps Group settings out of the timeline (issue 8 item 20)', () => {
    const ver = (seq: number, item_type: string, changed: string[]) => ({
      seq,
      id: `ver-${seq}`,
      changes: [{ rev: '1-x' }],
      doc: { _id: `ver-${seq}`, klass: 'DocumentChange', item_id: `x-${seq}`, item_type, event: 'create', changed },
    });
    const settings = Array.from({ length: 17 }, (_, i) => ver(i + 1, 'Adjustment', ['key', 'value']));
    expect(toCards({ last_seq: 17, results: settings })).toEqual([]);
    const cards = toCards({ last_seq: 18, results: [...settings, ver(18, 'Membership', ['db_name', 'email', 'klass', 'name'])] });
    expect(cards.map((c) => c.itemType)).toEqual(['Membership']);
    const raw = toCards({ last_seq: 1, results: [{ seq: 1, id: 'adj-1', changes: [{ rev: '1-a' }], doc: { _id: 'adj-1', klass: 'Adjustment', key: 'checklist' } }] });
    expect(raw).toEqual([]);
  });

  it('collapses one author’s changes of one record within minutes into one card (issue 22 item 9)', () => {
    const ANA = { _id: 'usr-1', label: 'Ana' };
    const BIA = { _id: 'usr-2', label: 'Bia' };
    const ver = (seq: number, item: string, event: string, who: typeof ANA, minute: number, changed: string[] = []) => ({
      seq,
      id: `ver-${seq}`,
      changes: [{ rev: '1-x' }],
      doc: {
        _id: `ver-${seq}`,
        klass: 'DocumentChange',
        item_id: item,
        item_type: 'CloudFile',
        event,
        events: event === 'update' ? ['update', 'attach'] : [event],
        whodunnit: who,
        created_at: new Date(Date.UTC(2025, 2, 1, 12, minute)).toISOString(),
        changed,
      },
    });
    // One file uploaded five times by Ana, another file's change in between.
    const cards = toCards({
      last_seq: 9,
      results: [
        ver(1, 'fle-1', 'create', ANA, 0, ['name', 'dir_id']),
        ver(2, 'fle-1', 'update', ANA, 1, ['bytes', 'size', 'versions']),
        ver(3, 'fle-2', 'create', ANA, 1),
        ver(4, 'fle-1', 'update', ANA, 2, ['stage']),
        ver(5, 'fle-1', 'update', ANA, 3, ['versions']),
        // Bia's change breaks the run; Ana's later ones start another.
        ver(6, 'fle-1', 'update', BIA, 4, ['description']),
        ver(7, 'fle-1', 'update', ANA, 5, ['versions']),
        // Past the window: a card of its own.
        ver(8, 'fle-1', 'update', ANA, 30, ['color']),
      ],
    });
    expect(cards.map((c) => [c.itemId, c.event, c.count, c.who?.label])).toEqual([
      ['fle-1', 'update', 1, 'Ana'],
      ['fle-1', 'update', 1, 'Ana'],
      ['fle-1', 'update', 1, 'Bia'],
      ['fle-1', 'create', 4, 'Ana'],
      ['fle-2', 'create', 1, 'Ana'],
    ]);
    // A record made in the run lists no "changes"; its own events are kept.
    expect(cards[3]?.changed).toEqual([]);
    expect(cards[3]?.events).toContain('attach');
    const updates = toCards({ last_seq: 2, results: [ver(1, 'fle-1', 'update', ANA, 0, ['size']), ver(2, 'fle-1', 'update', ANA, 2, ['versions', 'size'])] });
    expect(updates.map((c) => [c.event, c.count, c.changed])).toEqual([['update', 2, ['versions', 'size']]]);
  });

  it("names a module's own event: close before status, comment on a comment's creation", () => {
    const ver = (seq: number, events: string[]) => ({
      seq,
      id: `ver-${seq}`,
      changes: [{ rev: '1-x' }],
      doc: { _id: `ver-${seq}`, klass: 'DocumentChange', item_id: 'tik-1', item_type: 'Ticket', event: events[0], events },
    });
    const cards = toCards({ last_seq: 3, results: [ver(1, ['update', 'status', 'close']), ver(2, ['create', 'comment']), ver(3, ['update'])] });
    expect(cards.map((c) => ownEvent(c.event, c.events))).toEqual([null, 'comment', 'close']);
  });

  it('without versions, each change is a card: create on 1-, destroy when deleted, else update', () => {
    const cards = toCards({
      last_seq: 5,
      results: [
        { seq: 1, id: 'cus-1', changes: [{ rev: '1-a' }], doc: { _id: 'cus-1', _rev: '1-a', klass: 'Customer', name: 'Zé' } },
        { seq: 2, id: 'cus-2', changes: [{ rev: '3-a' }], doc: { _id: 'cus-2', _rev: '3-a', klass: 'Customer' } },
        { seq: 3, id: 'cus-3', changes: [{ rev: '2-a' }], deleted: true },
        { seq: 4, id: '_design/x', changes: [{ rev: '1-a' }] },
      ],
    });
    expect(cards.map((c) => [c.itemId, c.event])).toEqual([
      ['cus-3', 'destroy'],
      ['cus-2', 'update'],
      ['cus-1', 'create'],
    ]);
    expect(cards[2]?.label).toBe('Zé');
  });
});

describe('balances (SPEC §2, §7)', () => {
  it('keeps only currencies above 0, read from minor units', () => {
    expect(
      positiveBalances({
        rows: [
          { key: 'BRL', value: 125050 },
          { key: 'USD', value: 0 },
          { key: ['EUR'], value: -300 },
          { key: 'JPY', value: { balance: 10 } },
        ],
      }),
    ).toEqual([
      // Minor units read at each currency's ISO digits.
      { currency: 'BRL', balance: 1250.5 },
      { currency: 'JPY', balance: 10 },
    ]);
  });

  it('reads the view with group_level=1 and reduce=true; a 404 (view not built) is no balances', async () => {
    const { calls } = mockFetch(() => json(404, { error: 'not_found', reason: 'missing_named_view' }));
    await expect(fetchBalances('acc-1')).resolves.toEqual([]);
    expect(calls[0]?.path).toBe('/api/acc-1/_design/wallet-balances/_view/by-currency?group_level=1&reduce=true');
  });
});

describe('admin tiles by app (SPEC §2 Admin)', () => {
  const keys = (m: Parameters<typeof adminTiles>[0], sub = false) => adminTiles(m, 'acc-1', { hasSubGroups: sub }).map((t) => t.key);
  const ALL = ['memberships', 'billing', 'usage'];
  it('lists each app exactly as the spec does', () => {
    expect(keys('exoreader')).toEqual(['reader_items', 'reader_subscriptions', 'reader_labels', ...ALL]);
    expect(keys('organize3')).toEqual(['outgos', 'incomes', 'transfers', 'exchanges', 'wallets', ...ALL]);
    expect(keys('ticket')).toEqual(['tickets', 'customers', 'equipment', 'maintenances', 'estimates', 'categories', 'contracts', 'handbooks', 'disk', ...ALL]);
    expect(keys('textnotes')).toEqual(['handbooks', 'disk', ...ALL]);
    expect(keys('rdisk')).toEqual(['disk', ...ALL]);
  });
  it('shows sub-groups only when the account has some', () => {
    expect(keys('rdisk', true)).toEqual(['disk', ...ALL, 'groups']);
    expect(adminTiles('ticket', 'acc-1', { hasSubGroups: true }).at(-1)?.to).toBe('/account/acc-1/groups');
  });
});

describe('phones and addresses (one JSON adjustment each)', () => {
  it('has the spec fields', () => {
    expect(PHONE_FIELDS).toEqual(['main', 'description', 'number']);
    expect(ADDRESS_FIELDS).toEqual(['main', 'description', 'zip_code', 'street', 'number', 'neighborhood', 'complement', 'city', 'state']);
  });
  it('reads an array or a JSON string, and rewrites the list on new, edit and delete', () => {
    expect(parseContacts('[{"number":"1"}]')).toEqual([{ number: '1' }]);
    expect(parseContacts('nope')).toEqual([]);
    const one = upsertContact([], { number: '1', main: true }, null);
    const two = upsertContact(one, { number: '2', main: true, marktodelete: true }, null);
    expect(two).toEqual([
      { number: '1', main: false },
      { number: '2', main: true },
    ]);
    const edited = upsertContact(two, { number: '1b', main: false }, 0);
    expect(edited[0]).toEqual({ number: '1b', main: false });
    expect(removeContact(edited, 1)).toEqual([{ number: '1b', main: false }]);
  });
});
