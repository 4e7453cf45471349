// The plan chooser's rules and the usage series, as plain functions.

import { describe, expect, it } from 'vitest';
import { daysLeft } from '../../lib/limits';
import type { PlanPrice } from './api/prices';
import { checkoutPrice, COMPARISON_ROWS, enoughPrices, lockedUntil, pricesByPlan, tooManyForFree } from './plans';
import { usageSeries } from './usage';

const p = (id: string, plan: string, over: Partial<PlanPrice> = {}): PlanPrice => ({ _id: id, group_plan: plan, unit_amount: 100, active: true, livemode: false, ...over });

describe('plan rules', () => {
  it('has 15 comparison rows with unique keys', () => {
    expect(COMPARISON_ROWS).toHaveLength(15);
    expect(new Set(COMPARISON_ROWS.map((r) => r.key)).size).toBe(15);
  });

  it('needs 3 prices of the Group\'s mode, and picks one per plan', () => {
    const list = [p('a', 'free'), p('b', 'pro'), p('c', 'corp', { livemode: true }), p('d', 'pro', { active: false })];
    expect(enoughPrices(list, false)).toBe(false);
    expect(enoughPrices([...list, p('e', 'corp')], false)).toBe(true);
    const by = pricesByPlan([p('x', 'pro', { active: false }), ...list, p('y', 'pro')], false);
    expect(by.pro?._id).toBe('b');
    expect(by.corp).toBeUndefined();
    expect(pricesByPlan(list, true).corp?._id).toBe('c');
  });

  it('the checkout lookup must find exactly one active price', () => {
    expect(checkoutPrice([])).toBeNull();
    expect(checkoutPrice([p('a', 'pro'), p('b', 'pro')])).toBeNull();
    expect(checkoutPrice([p('a', 'pro', { active: false })])).toBeNull();
    expect(checkoutPrice([p('a', 'pro')])?._id).toBe('a');
  });

  it('reads the 24 h lock and the 1,000-record refusal', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(lockedUntil('2026-11-26T11:00:00Z', now)?.toISOString()).toBe('2026-11-26T11:00:00.000Z');
    expect(lockedUntil('2026-11-25T11:59:59Z', now)).toBeNull();
    expect(lockedUntil('not a date', now)).toBeNull();
    expect(lockedUntil(null, now)).toBeNull();
    expect(tooManyForFree(1000)).toBe(false);
    expect(tooManyForFree(1001)).toBe(true);
    expect(tooManyForFree(null)).toBe(false);
  });

  it('counts whole days left, 0 once passed', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(daysLeft('2026-11-27T11:00:00Z', now)).toBe(1);
    expect(daysLeft('2026-11-27T13:00:00Z', now)).toBe(2);
    expect(daysLeft('2026-11-20T00:00:00Z', now)).toBe(0);
    expect(daysLeft('', now)).toBeNull();
    expect(daysLeft('nope', now)).toBeNull();
  });
});

describe('usageSeries', () => {
  it('orders days, fills missing klasses with 0, and puts the largest klass first', () => {
    const s = usageSeries(
      [
        { date: '2026-11-24', klasses: { Ticket: { records: 5, bytes: 50 }, Customer: { records: 9, bytes: 10 } } },
        { date: '2026-11-23', klasses: { Ticket: { records: 4, bytes: 40 } } },
      ],
      'records',
    );
    expect(s.dates).toEqual(['2026-11-23', '2026-11-24']);
    expect(s.klasses).toEqual(['Customer', 'Ticket']);
    expect(s.values.Customer).toEqual([0, 9]);
    expect(s.totals).toEqual([4, 14]);
    expect(usageSeries([], 'bytes')).toEqual({ dates: [], klasses: [], values: {}, totals: [] });
  });
});
