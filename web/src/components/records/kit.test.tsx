// The shared record-kit pieces every module screen uses: reference picker
// and link, enum badges, money, multiline text, the comments panel.

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n';
import { json, mockFetch, renderScreen } from '../../test/utils';
import { CommentsPanel } from './CommentsPanel';
import { EnumBadge } from './EnumBadge';
import { MoneyInput, MoneyText } from './Money';
import { MultilineText } from './MultilineText';
import { RecordLink, RecordPicker } from './RecordPicker';

const DB = 'acc-0123456789abcdef0123456789abcdef';
const ANA = 'cus-00000000000000000000000000000001';
const BIA = 'cus-00000000000000000000000000000002';

describe('EnumBadge', () => {
  it('translates the value and colours it, in both languages', async () => {
    renderScreen(<EnumBadge name="status" value="block" />);
    expect(screen.getByText('Blocked')).toHaveAttribute('data-value', 'block');
    await i18n.changeLanguage('pt-BR');
    try {
      renderScreen(<EnumBadge name="priority" value="high" />);
      expect(screen.getByText('Alta')).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('shows an unknown value as is and nothing for none', () => {
    const { container } = renderScreen(<EnumBadge name="status" value={null} />);
    expect(container.querySelector('.enum-badge')).toBeNull();
    renderScreen(<EnumBadge name="status" value="weird" />);
    expect(screen.getByText('weird')).toBeInTheDocument();
  });
});

describe('MultilineText', () => {
  it('keeps line breaks and never renders markup', async () => {
    const { container } = renderScreen(<MultilineText text={'Tela quebrada\n<b>não liga</b>\n3\n4'} clampLines={2} />);
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toContain('Tela quebrada\n<b>não liga</b>…');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show more' }));
    expect(container.textContent).toContain('3\n4');
  });
});

describe('money', () => {
  it('MoneyText formats minor units per locale', () => {
    renderScreen(<MoneyText units={123456} currency="USD" precision={2} />);
    expect(screen.getByText('US$1,234.56')).toBeInTheDocument();
  });

  it('MoneyInput hands back units, and NaN with a message while the text is not an amount', async () => {
    const seen: Array<number | null> = [];
    function H() {
      const [u, setU] = useState<number | null>(1050);
      return (
        <MoneyInput
          label="Value"
          name="value"
          units={u}
          currency="BRL"
          onChange={(v) => {
            seen.push(v);
            setU(v);
          }}
        />
      );
    }
    renderScreen(<H />);
    const input = screen.getByLabelText('Value');
    expect(input).toHaveValue('10.50');
    const user = userEvent.setup();
    await user.clear(input);
    await user.type(input, '1,234.5');
    expect(seen.at(-1)).toBe(123450);
    await user.type(input, 'x');
    expect(seen.at(-1)).toBeNaN();
    expect(screen.getByText('is not an amount')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '-5');
    expect(screen.getByText('must be greater than or equal to 0')).toBeInTheDocument();
  });
});

describe('RecordPicker', () => {
  it('searches by name as you type, picks with the keyboard and shows the choice as a link', async () => {
    const { calls } = mockFetch((c) => {
      if (c.method === 'POST' && c.path.endsWith('/_find')) {
        const sel = (c.body as { selector: Record<string, unknown> }).selector;
        const docs = [
          { _id: ANA, klass: 'Customer', name: 'Ana Souza', email: 'ana@example.com' },
          { _id: BIA, klass: 'Customer', name: 'Bia Lima' },
        ].filter((d) => !sel.name || new RegExp(String((sel.name as { $regex: string }).$regex).replace('(?i)', ''), 'i').test(d.name));
        return json(200, { docs });
      }
      if (c.method === 'GET' && c.path.includes(BIA)) return json(200, { _id: BIA, klass: 'Customer', name: 'Bia Lima' });
      return undefined;
    });
    const onChange = vi.fn();
    function H() {
      const [v, setV] = useState<string | null>(null);
      return (
        <RecordPicker
          db={DB}
          klass="Customer"
          label="Customer"
          name="customer_id"
          detailField="email"
          value={v}
          onChange={(id) => {
            onChange(id);
            setV(id);
          }}
        />
      );
    }
    renderScreen(<H />);
    const user = userEvent.setup();
    const box = screen.getByRole('combobox', { name: 'Customer' });
    await user.click(box);
    await user.type(box, 'bia');
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('/_find')).at(-1)!.body).toMatchObject({
        selector: { klass: 'Customer', name: { $regex: '(?i)bia' } },
        limit: 10,
      }),
    );
    await waitFor(() => expect(screen.queryByText('Ana Souza')).toBeNull());
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(BIA);
    const link = await screen.findByRole('link', { name: 'Bia Lima' });
    expect(link).toHaveAttribute('href', `/account/${DB}/customers/${BIA}`);
  });

  it('RecordLink names a referenced record and links to it', async () => {
    mockFetch((c) => (c.path.includes(ANA) ? json(200, { _id: ANA, name: 'Ana Souza' }) : undefined));
    renderScreen(<RecordLink db={DB} id={ANA} />);
    expect(await screen.findByRole('link', { name: 'Ana Souza' })).toHaveAttribute('href', `/account/${DB}/customers/${ANA}`);
  });
});

describe('CommentsPanel', () => {
  it('lists comments and adds one, refusing a blank one without a request', async () => {
    const posted: unknown[] = [];
    const { calls } = mockFetch((c) => {
      if (c.method === 'POST' && c.path.endsWith('/_find')) {
        return json(200, { docs: posted.length ? [{ _id: 'cmt-1', content: 'Peça chegou', created_by: { _id: 'usr-1', label: 'Ana' } }] : [] });
      }
      if (c.method === 'POST' && c.path === `/api/${DB}`) {
        posted.push(c.body);
        return json(201, { ok: true, id: 'cmt-00000000000000000000000000000001', rev: '1-a' });
      }
      return undefined;
    });
    renderScreen(<CommentsPanel db={DB} itemId={ANA} itemType="Customer" />);
    expect(await screen.findByText('No comments yet.')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add comment' }));
    expect(await screen.findByText("can't be blank")).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === `/api/${DB}`)).toBe(false);
    await user.type(screen.getByLabelText('New comment'), 'Peça chegou');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(posted).toEqual([{ klass: 'Comment', content: 'Peça chegou', item_id: ANA, item_type: 'Customer' }]));
    expect(await screen.findByText('Peça chegou')).toBeInTheDocument();
    expect(screen.getByLabelText('New comment')).toHaveValue('');
  });

  it('shows the comment the save answers without reading the list again', async () => {
    const older = { _id: 'cmt-0', content: 'Orçamento enviado', created_by: { _id: 'usr-1', label: 'Ana' } };
    const { calls } = mockFetch((c) => {
      if (c.method === 'POST' && c.path.endsWith('/_find')) return json(200, { docs: [older] });
      if (c.method === 'POST' && c.path === `/api/${DB}`) {
        const doc = { _id: 'cmt-1', _rev: '1-a', klass: 'Comment', content: 'Peça chegou', created_by: { _id: 'usr-1', label: 'Ana' } };
        return json(201, { ok: true, id: 'cmt-1', rev: '1-a', doc });
      }
      return undefined;
    });
    renderScreen(<CommentsPanel db={DB} itemId={ANA} itemType="Customer" />);
    expect(await screen.findByText('Orçamento enviado')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New comment'), 'Peça chegou');
    await user.click(screen.getByRole('button', { name: 'Add comment' }));
    expect(await screen.findByText('Peça chegou')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.path === `/api/${DB}`);
    expect(post?.headers.prefer).toBe('return=representation');
    const texts = [...document.querySelectorAll('.comments-panel')].map((e) => e.textContent ?? '');
    expect(texts[0]?.indexOf('Peça chegou')).toBeLessThan(texts[0]?.indexOf('Orçamento enviado') ?? -1); // newest first
    expect(calls.filter((c) => c.path.endsWith('/_find'))).toHaveLength(1);
  });
});
