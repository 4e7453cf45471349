import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n';
import { parseAmount, rescaleUnits, unitsToInput } from '../../lib/money';
import { ApiError } from '../../lib/errors';
import { balanceSeries, dayBefore, moves } from './balance';
import { checkMapping, checkRecord, checkWallet, MSG, walletsHint } from './checks';
import { monthRange, readFilters, recordSelector, splitCategories, stateOf } from './filters';
import { complete, ruleInWords } from './mapping-words';
import { rangeStart, summarize, topCategories } from './summary';
import { runBulk } from './api/records';
import { KINDS, kindOfSet, type MoneyRecord, type Wallet } from './api/types';
import { figuresFrom, knownCurrency } from './api/wallets';
import { draftOf, mappingSelector } from './api/mappings';
import { initialValues, switchLink } from './routes/MoneyForm';
import { filterWallets } from './routes/WalletsIndex';

const W = 'wll-a';
const rec = (r: Partial<MoneyRecord>): MoneyRecord => ({ _id: `x-${Math.random()}`, confirmed: true, imported: false, ...r });

describe('moves (the server tallies mirrored)', () => {
  it('adds incomes, takes expenses, and puts fees on the side that pays them', () => {
    expect(moves(rec({ klass: 'Income', wallet_id: W, value: 500 }))).toEqual({ [W]: 500 });
    expect(moves(rec({ klass: 'Outgo', wallet_id: W, value: 300 }))).toEqual({ [W]: -300 });
    expect(moves(rec({ klass: 'Transfer', source_wallet_id: W, destination_wallet_id: 'wll-b', value: 1000, fee: 10 }))).toEqual({ [W]: -1010, 'wll-b': 1000 });
    expect(moves(rec({ klass: 'Transfer', source_wallet_id: W, destination_wallet_id: 'wll-b', value: 1000, fee: 10, fee_kind: 'destination' }))).toEqual({ [W]: -1000, 'wll-b': 990 });
    expect(moves(rec({ klass: 'Exchange', source_wallet_id: W, destination_wallet_id: 'wll-b', value_out: 10000, value_in: 5400, fee: 50, fee_kind: 'destination' }))).toEqual({ [W]: -10000, 'wll-b': 5350 });
  });
});

describe('balanceSeries', () => {
  it('starts from the opening balance the day before the first move and adds each day', () => {
    const records = [
      rec({ klass: 'Income', wallet_id: W, value: 10000, posted_at: '2025-03-05' }),
      rec({ klass: 'Outgo', wallet_id: W, value: 2500, posted_at: '2025-03-01' }),
      rec({ klass: 'Outgo', wallet_id: W, value: 500, posted_at: '2025-03-05' }),
      rec({ klass: 'Transfer', source_wallet_id: 'wll-b', destination_wallet_id: W, value: 700, fee: 30, posted_at: '2025-04-01' }),
      rec({ klass: 'Exchange', source_wallet_id: W, destination_wallet_id: 'wll-usd', value_out: 1000, value_in: 200, fee: 20, posted_at: '2025-04-02' }),
    ];
    expect(balanceSeries(W, 1000, records, '2025-05-01')).toEqual([
      { date: '2025-02-28', balance: 1000 },
      { date: '2025-03-01', balance: -1500 },
      { date: '2025-03-05', balance: 8000 },
      { date: '2025-04-01', balance: 8700 },
      { date: '2025-04-02', balance: 7680 },
    ]);
  });

  it('leaves out unconfirmed, imported, other wallets’ and dateless records; falls back to created_at', () => {
    const records = [
      rec({ klass: 'Income', wallet_id: W, value: 100, posted_at: '2025-01-02', confirmed: false }),
      rec({ klass: 'Income', wallet_id: W, value: 100, posted_at: '2025-01-02', imported: true }),
      rec({ klass: 'Income', wallet_id: 'wll-other', value: 100, posted_at: '2025-01-02' }),
      rec({ klass: 'Income', wallet_id: W, value: 100 }),
      rec({ klass: 'Income', wallet_id: W, value: 40, created_at: '2025-01-09T10:00:00Z' }),
    ];
    expect(balanceSeries(W, 0, records, '2025-02-01')).toEqual([
      { date: '2025-01-08', balance: 0 },
      { date: '2025-01-09', balance: 40 },
    ]);
  });

  it('is the opening balance today when nothing moved', () => {
    expect(balanceSeries(W, -250, [], '2025-06-30')).toEqual([{ date: '2025-06-30', balance: -250 }]);
    expect(balanceSeries(W, undefined, [], '2025-06-30')).toEqual([{ date: '2025-06-30', balance: 0 }]);
  });

  it('steps back across months and years', () => {
    expect(dayBefore('2025-03-01')).toBe('2025-02-28');
    expect(dayBefore('2024-03-01')).toBe('2024-02-29');
    expect(dayBefore('2025-01-01')).toBe('2024-12-31');
  });
});

describe('money typed per locale at a wallet’s precision', () => {
  it.each([
    ['12,50', 'pt-BR', 2, 1250],
    ['12.50', 'en', 2, 1250],
    ['1.234,5', 'pt-BR', 2, 123450],
    ['1,234.5', 'en', 2, 123450],
    ['12', 'pt-BR', 0, 12],
    ['0,125', 'pt-BR', 3, 125],
    ['3.1415', 'en', 4, 31415],
    ['-7,5', 'pt-BR', 2, -750],
    ['R$ 99,90', 'pt-BR', 2, 9990],
    ['US$ 5', 'en', 2, 500],
  ])('%j in %s at %d digits is %d units', (text, locale, p, want) => {
    expect(parseAmount(text, locale, p)).toBe(want);
  });

  it('refuses more decimals than the wallet keeps, and letters', () => {
    expect(parseAmount('12,50', 'pt-BR', 0)).toBeNaN();
    expect(parseAmount('1.005', 'en', 2)).toBeNaN();
    expect(parseAmount('doze', 'pt-BR', 2)).toBeNaN();
  });

  it('shows units back the way each locale types them', () => {
    expect(unitsToInput(1250, 'pt-BR', 2)).toBe('12,50');
    expect(unitsToInput(1250, 'en', 2)).toBe('12.50');
    expect(unitsToInput(5, 'en', 3)).toBe('0.005');
  });

  it('keeps an amount’s value when the wallet (and so the precision) changes', () => {
    expect(rescaleUnits(1250, 2, 4)).toBe(125000);
    expect(rescaleUnits(1250, 2, 0)).toBeNaN();
    expect(rescaleUnits(1200, 2, 0)).toBe(12);
  });
});

describe('filters → Mango selector', () => {
  const sp = (q: string) => readFilters(new URLSearchParams(q));

  it('pins the klass and nothing else without filters', () => {
    expect(recordSelector(KINDS.income, sp(''))).toEqual({ klass: 'Income' });
  });

  it('reads the URL, ignoring what is malformed', () => {
    expect(sp('q=%20uber%20&wallet=wll-1&category=eating%20out&month=2025-13&state=weird')).toEqual({ q: 'uber', wallet: 'wll-1', category: 'eating-out', month: '', state: 'all' });
  });

  it('filters an income by wallet, category, month and state, and searches description and payer', () => {
    expect(recordSelector(KINDS.income, sp('wallet=wll-1&category=salary&month=2025-12&state=confirmed&q=acme (inc)'))).toEqual({
      klass: 'Income',
      wallet_id: 'wll-1',
      categories: { $all: ['salary'] },
      posted_at: { $gte: '2025-12-01', $lt: '2026-01-01' },
      confirmed: true,
      imported: false,
      $or: [{ description: { $regex: '(?i)acme \\(inc\\)' } }, { paid_by: { $regex: '(?i)acme \\(inc\\)' } }],
    });
  });

  it('matches either wallet of a transfer, and combines that with a search under $and', () => {
    expect(recordSelector(KINDS.transfer, sp('wallet=wll-1'))).toEqual({ klass: 'Transfer', $or: [{ source_wallet_id: 'wll-1' }, { destination_wallet_id: 'wll-1' }] });
    expect(recordSelector(KINDS.exchange, sp('wallet=wll-1&q=trip&state=imported'))).toEqual({
      klass: 'Exchange',
      imported: true,
      $and: [{ $or: [{ source_wallet_id: 'wll-1' }, { destination_wallet_id: 'wll-1' }] }, { $or: [{ description: { $regex: '(?i)trip' } }, { paid_to: { $regex: '(?i)trip' } }] }],
    });
    expect(recordSelector(KINDS.outgo, sp('state=unconfirmed'))).toEqual({ klass: 'Outgo', confirmed: false, imported: false });
  });

  it('turns a month into a half-open range of days', () => {
    expect(monthRange('2025-02')).toEqual(['2025-02-01', '2025-03-01']);
    expect(() => monthRange('2025-2')).toThrow();
  });

  it('splits categories like the server', () => {
    expect(splitCategories(' food, eating  out ,,food, fun ')).toEqual(['food', 'eating-out', 'fun']);
    expect(splitCategories(['a b', 'c'])).toEqual(['a-b', 'c']);
    expect(splitCategories(undefined)).toEqual([]);
  });

  it('tells a record’s state', () => {
    expect(stateOf({ confirmed: true, imported: false })).toBe('confirmed');
    expect(stateOf({ confirmed: false })).toBe('unconfirmed');
    expect(stateOf({ confirmed: true, imported: true })).toBe('imported');
  });

  it('maps a route’s set to its kind', () => {
    expect(kindOfSet('outgos').klass).toBe('Outgo');
    expect(kindOfSet('exchanges').amount).toBe('value_out');
    expect(kindOfSet(undefined).klass).toBe('Income');
  });

  it('searches mappings by description or the text they match', () => {
    expect(mappingSelector(' ')).toEqual({ klass: 'Mapping' });
    expect(mappingSelector('uber')).toEqual({ klass: 'Mapping', $or: [{ description: { $regex: '(?i)uber' } }, { text_to_match: { $regex: '(?i)uber' } }] });
  });
});

describe('a mapping rule in words', () => {
  const rule = { target: 'outgo', field_to_watch: 'description', kind_of_watch: 'contains', text_to_match: ' UBER ', kind_of_change: 'replace', field_to_change: 'categories', text_to_change: 'transport' } as const;

  it('reads in English', () => {
    const t = i18n.getFixedT('en');
    expect(ruleInWords(rule, t)).toBe('On expenses, when the description contains “UBER”, set the category list to “transport”.');
    expect(ruleInWords({ ...rule, target: 'income', field_to_watch: 'third_party', kind_of_watch: 'equals', kind_of_change: 'append', field_to_change: 'description', text_to_change: ' (salary)' }, t)).toBe(
      'On revenues, when the third party is “UBER”, add “ (salary)” at the end of the description.',
    );
    expect(ruleInWords({ ...rule, kind_of_watch: 'starts_with', kind_of_change: 'prepend', field_to_change: 'third_party', text_to_change: 'Uber ' }, t)).toBe(
      'On expenses, when the description starts with “UBER”, add “Uber ” at the start of the third party.',
    );
    expect(ruleInWords({ ...rule, text_to_change: '' }, t)).toBe('On expenses, when the description contains “UBER”, clear the category list.');
  });

  it('reads in Portuguese', () => {
    const t = i18n.getFixedT('pt-BR');
    expect(ruleInWords(rule, t)).toBe('Em despesas, quando a descrição contém “UBER”, trocar a lista de categorias por “transport”.');
    expect(ruleInWords({ ...rule, kind_of_watch: 'ends_with', kind_of_change: 'append', field_to_change: 'description', text_to_change: '!' }, t)).toBe(
      'Em despesas, quando a descrição termina com “UBER”, acrescentar “!” ao fim da descrição.',
    );
  });

  it('asks for the missing parts instead of reading half a rule', () => {
    const t = i18n.getFixedT('en');
    expect(complete({ ...rule, text_to_match: '  ' })).toBe(false);
    expect(ruleInWords({ target: 'outgo' }, t)).toBe('Fill in the rule to read it here.');
  });

  it('sends only the rule’s parts to the preview', () => {
    expect(draftOf({ ...rule, description: 'Uber', active: true, order: 3 })).toEqual({ ...rule });
  });
});

describe('form checks', () => {
  const wallets = new Map<string, Wallet>([
    ['wll-brl', { _id: 'wll-brl', name: 'Conta', currency: 'BRL', precision: 2 }],
    ['wll-brl2', { _id: 'wll-brl2', name: 'Poupança', currency: 'BRL', precision: 2 }],
    ['wll-usd', { _id: 'wll-usd', name: 'Dollars', currency: 'USD', precision: 2 }],
  ]);

  it('asks for what the server requires, worded as it refuses', () => {
    expect(checkRecord(KINDS.income, { description: ' ', value: null }, wallets)).toEqual({ description: [MSG.blank], wallet_id: [MSG.blank], value: [MSG.blank] });
    expect(checkRecord(KINDS.outgo, { description: 'x', wallet_id: 'wll-brl', value: Number.NaN }, wallets)).toEqual({ value: [MSG.notNumber] });
    expect(checkRecord(KINDS.outgo, { description: 'x', wallet_id: 'wll-brl', value: -1 }, wallets)).toEqual({ value: [MSG.negative] });
    expect(checkRecord(KINDS.exchange, { description: 'x', source_wallet_id: 'wll-brl', destination_wallet_id: 'wll-usd', value_out: 100 }, wallets)).toEqual({ value_in: [MSG.blank] });
  });

  it('says a transfer across currencies needs an exchange, and an exchange within one a transfer', () => {
    const transfer = { description: 'x', source_wallet_id: 'wll-brl', destination_wallet_id: 'wll-usd', value: 100 };
    expect(checkRecord(KINDS.transfer, transfer, wallets)).toEqual({ destination_wallet_id: [MSG.needsExchange] });
    expect(checkRecord(KINDS.transfer, { ...transfer, destination_wallet_id: 'wll-brl2' }, wallets)).toEqual({});
    expect(checkRecord(KINDS.transfer, { ...transfer, destination_wallet_id: 'wll-brl' }, wallets)).toEqual({ destination_wallet_id: [MSG.sameWallet] });
    expect(walletsHint(KINDS.exchange, wallets.get('wll-brl'), wallets.get('wll-brl2'))).toBe(MSG.needsTransfer);
    expect(walletsHint(KINDS.exchange, wallets.get('wll-brl'), undefined)).toBeNull();
  });

  it('checks a wallet’s currency and amounts', () => {
    expect(checkWallet({ name: 'Conta', currency: 'brl', start_balance: -500 })).toEqual({});
    expect(checkWallet({ name: '', currency: '' })).toEqual({ name: [MSG.blank], currency: [MSG.blank] });
    expect(checkWallet({ name: 'x', currency: 'R$' })).toEqual({ currency: [MSG.currency] });
    expect(checkWallet({ name: 'x', currency: 'USD', card_limit: -1, start_balance: Number.NaN })).toEqual({ card_limit: [MSG.negative], start_balance: [MSG.notNumber] });
    expect(knownCurrency('jpy')).toBe(true);
    expect(knownCurrency('US')).toBe(false);
  });

  it('checks a mapping’s parts', () => {
    expect(checkMapping({ description: 'd', target: 'outgo', field_to_watch: 'description', kind_of_watch: 'contains', text_to_match: 'x', kind_of_change: 'replace', field_to_change: 'categories', order: 2 })).toEqual({});
    expect(Object.keys(checkMapping({ order: -1 })).sort()).toEqual(['description', 'field_to_change', 'field_to_watch', 'kind_of_change', 'kind_of_watch', 'order', 'target', 'text_to_match']);
  });

  it('carries a transfer over to an exchange and back', () => {
    const link = switchLink('acc-1', 'exchanges', { description: 'Trip', posted_at: '2025-05-01', source_wallet_id: 'wll-brl', destination_wallet_id: 'wll-usd', value: 12345, categories: ['travel'] });
    expect(link).toBe('/account/acc-1/exchanges/new?description=Trip&posted_at=2025-05-01&source=wll-brl&destination=wll-usd&value_out=12345&categories=travel');
    const v = initialValues(KINDS.exchange, new URL(link, 'http://x').searchParams);
    expect(v).toMatchObject({ description: 'Trip', posted_at: '2025-05-01', source_wallet_id: 'wll-brl', destination_wallet_id: 'wll-usd', value_out: 12345, categories: 'travel', confirmed: false });
    expect(initialValues(KINDS.income, new URLSearchParams('wallet=wll-brl&value=abc'))).toMatchObject({ wallet_id: 'wll-brl', value: null });
  });
});

describe('the dashboard’s figures', () => {
  const wallets = new Map<string, Wallet>([
    ['wll-brl', { _id: 'wll-brl', currency: 'BRL', precision: 2 }],
    ['wll-brl3', { _id: 'wll-brl3', currency: 'BRL', precision: 3 }],
    ['wll-usd', { _id: 'wll-usd', currency: 'USD', precision: 2 }],
  ]);

  it('sums confirmed revenues and expenses per currency and category, in ISO minor units', () => {
    const records = [
      rec({ klass: 'Income', wallet_id: 'wll-brl', currency: 'BRL', value: 500000, categories: ['salary'] }),
      rec({ klass: 'Outgo', wallet_id: 'wll-brl3', currency: 'BRL', value: 12345, categories: ['food', 'fun'] }),
      rec({ klass: 'Outgo', wallet_id: 'wll-brl', currency: 'BRL', value: 1000 }),
      rec({ klass: 'Outgo', wallet_id: 'wll-brl', currency: 'BRL', value: 99999, confirmed: false }),
      rec({ klass: 'Outgo', wallet_id: 'wll-usd', currency: 'USD', value: 700, categories: ['food'] }),
      rec({ klass: 'Transfer', source_wallet_id: 'wll-brl', destination_wallet_id: 'wll-brl3', value: 5 }),
    ];
    const [brl, usd] = summarize(records, wallets);
    expect(brl).toEqual({
      currency: 'BRL',
      precision: 2,
      income: 500000,
      expense: 1235 + 1000,
      net: 500000 - 2235,
      categories: [
        { category: 'salary', income: 500000, expense: 0 },
        { category: 'food', income: 0, expense: 1235 },
        { category: 'fun', income: 0, expense: 1235 },
        { category: '', income: 0, expense: 1000 },
      ],
    });
    expect(usd).toMatchObject({ currency: 'USD', income: 0, expense: 700, net: -700 });
  });

  it('folds the smaller categories into one', () => {
    const rows = [1, 2, 3, 4].map((n) => ({ category: `c${n}`, income: 0, expense: 10 * (5 - n) }));
    expect(topCategories(rows, 3, 'other')).toEqual([rows[0], rows[1], { category: 'other', income: 0, expense: 30 }]);
    expect(topCategories(rows, 4, 'other')).toEqual(rows);
  });

  it('starts the last 30 days and the last 12 months where expected', () => {
    expect(rangeStart('30d', '2025-03-10')).toBe('2025-02-09');
    expect(rangeStart('12m', '2025-03-10')).toBe('2024-04-01');
    expect(rangeStart('12m', '2025-12-31')).toBe('2025-01-01');
  });

  it('reads the by-wallet view', () => {
    expect(
      figuresFrom({
        rows: [
          { key: 'wll-1', value: { currency: 'BRL', balance: 100, pending_transactions: -20, balance_after_pending: 80, precision: 2 } },
          { key: 'wll-2', value: { currency: 'USD', balance: 0, pending_transactions: 0, balance_after_pending: 0, available_credit: 5000, precision: 2 } },
          { key: 'wll-3', value: null },
        ],
      }),
    ).toEqual({
      'wll-1': { currency: 'BRL', balance: 100, pending_transactions: -20, balance_after_pending: 80, precision: 2 },
      'wll-2': { currency: 'USD', balance: 0, pending_transactions: 0, balance_after_pending: 0, available_credit: 5000, precision: 2 },
    });
  });

  it('filters wallets by text and activity', () => {
    const list: Wallet[] = [
      { _id: 'a', name: 'Nubank', currency: 'BRL' },
      { _id: 'b', name: 'Cash', label: 'pocket', currency: 'USD', active: false },
    ];
    expect(filterWallets(list, '', 'active').map((w) => w._id)).toEqual(['a']);
    expect(filterWallets(list, 'POCKET', 'all').map((w) => w._id)).toEqual(['b']);
    expect(filterWallets(list, 'usd', 'inactive').map((w) => w._id)).toEqual(['b']);
  });
});

describe('bulk confirmation', () => {
  it('calls each id in turn, reports progress, and keeps going past a failure', async () => {
    const progress: number[] = [];
    const fn = vi.fn(async (id: string) => {
      if (id === 'b') throw new ApiError(422, 'unprocessable_entity', 'Revenue is already confirmed');
      return { ok: true };
    });
    const results = await runBulk(['a', 'b', 'c'], fn, (done) => progress.push(done));
    expect(fn.mock.calls.map((c) => c[0])).toEqual(['a', 'b', 'c']);
    expect(progress).toEqual([1, 2, 3]);
    expect(results.map((r) => [r.id, r.ok, r.error?.reason])).toEqual([
      ['a', true, undefined],
      ['b', false, 'Revenue is already confirmed'],
      ['c', true, undefined],
    ]);
  });
});
