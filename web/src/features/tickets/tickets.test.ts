import { describe, expect, it } from 'vitest';
import { ticketSelector } from './api/tickets';
import { ticketTitle } from './api/title';
import { canMove, STATUSES } from './api/types';
import { ageText } from './components/TicketCard';
import { checklistLines } from './routes/CategoryForm';
import { matches, nextColumn } from './routes/TicketBoard';

describe('ticket selector', () => {
  it.each([
    ['nothing', {}, [], { klass: 'Ticket' }],
    ['a number', { q: '#42' }, [], { klass: 'Ticket', number: 42 }],
    ['filters', { status: 'open', priority: 'high', category: 'ctg-1', customer: 'cus-1', technician: 'usr-1' }, [], { klass: 'Ticket', status: 'open', priority: 'high', category_id: 'ctg-1', customer_id: 'cus-1', technical_id: 'usr-1' }],
    ['title or customer', { q: 'screen (cracked)' }, ['cus-9'], { klass: 'Ticket', $and: [{ $or: [{ title: { $regex: '(?i)screen \\(cracked\\)' } }, { customer_id: { $in: ['cus-9'] } }] }] }],
    ['mine and a search', { mine: 'usr-me', q: 'x' }, [], { klass: 'Ticket', $and: [{ $or: [{ technical_id: 'usr-me' }, { reviewer_id: 'usr-me' }] }, { $or: [{ title: { $regex: '(?i)x' } }] }] }],
  ])('%s', (_name, filters, ids, want) => {
    expect(ticketSelector(filters, ids)).toEqual(want);
  });
});

describe('the status matrix on the board', () => {
  it('moves to the nearest allowed column', () => {
    expect(nextColumn('open', 1)).toBe('block');
    expect(nextColumn('open', -1)).toBeNull();
    expect(nextColumn('done', -1)).toBe('open');
    expect(nextColumn('done', 1)).toBeNull();
    expect(nextColumn('block', 1)).toBe('doing');
  });
  it('lets done and cancel only re-open; cancel from anywhere else', () => {
    expect(canMove('done', 'doing')).toBe(false);
    expect(canMove('done', 'open')).toBe(true);
    for (const s of STATUSES) if (s !== 'done' && s !== 'cancel') expect(canMove(s, 'cancel')).toBe(true);
  });
  it('filters loaded cards like the index', () => {
    const tk = { _id: 'tik-1', number: 7, title: 'Broken hinge', customer_id: 'cus-1', priority: 'high' as const, technical_id: 'usr-a' };
    const base = { mineOn: false };
    expect(matches(tk, { ...base, q: '#7' }, {})).toBe(true);
    expect(matches(tk, { ...base, q: 'maria' }, { 'cus-1': 'Maria Souza' })).toBe(true);
    expect(matches(tk, { ...base, priority: 'low' }, {})).toBe(false);
    expect(matches(tk, { ...base, mineOn: true, mine: 'usr-b' }, {})).toBe(false);
    expect(matches(tk, { ...base, mineOn: true, mine: 'usr-a' }, {})).toBe(true);
  });
});

describe('helpers', () => {
  it('derives the title like the server', () => {
    expect(ticketTitle('Screen cracked\nDropped it')).toBe('Screen cracked');
    expect(ticketTitle('x'.repeat(70))).toBe('x'.repeat(60));
    expect(ticketTitle('  ')).toBe('');
  });
  it('keeps checklist lines as the server does', () => {
    expect(checklistLines(' Backup \n\nClean fan\r\n')).toEqual(['Backup', 'Clean fan']);
  });
  it('says the age in the largest unit', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(ageText('2026-11-24T11:30:00Z', now, 'en')).toBe('30 min. ago');
    expect(ageText('2026-11-21T12:00:00Z', now, 'en')).toBe('3 days ago');
  });
});
