import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { docSelector, itemsTotal, lineTotal, type EstimateItem } from './api/servicedocs';
import { EstimateItemsEditor, emptyItem } from './components/EstimateItemsEditor';
import { checkEstimate } from './routes/EstimateForm';
import { warrantyUntil } from './routes/MaintenanceForm';

describe('estimate totals', () => {
  it('adds quantity × value in cents, ignoring lines not typed yet', () => {
    const items: EstimateItem[] = [
      { description: 'Tela', quantity: 1, value: 98050 },
      { description: 'Mão de obra', quantity: 2, value: 12700 },
      { description: 'x', quantity: null, value: 500 },
      { description: 'y', quantity: 3, value: Number.NaN },
    ];
    expect(lineTotal(items[1]!)).toBe(25400);
    expect(itemsTotal(items)).toBe(123450);
  });
});

describe('checkEstimate', () => {
  it('keys errors like the server', () => {
    const errs = checkEstimate({ description: ' ', items: [{ description: '', quantity: 0, value: -1 }, { description: 'ok', quantity: 1.5, value: Number.NaN }] });
    expect(errs).toEqual({
      description: ["can't be blank"],
      customer_id: ["can't be blank"],
      'items[0].description': ["can't be blank"],
      'items[0].quantity': ['must be greater than or equal to 1'],
      'items[0].value': ['must be greater than or equal to 0'],
      'items[1].quantity': ['must be greater than or equal to 1'],
      'items[1].value': ['is not a number'],
    });
    expect(checkEstimate({ description: 'd', customer_id: 'cus-1', items: [] })).toEqual({ items: ["can't be blank"] });
    expect(checkEstimate({ description: 'd', customer_id: 'cus-1', items: [{ description: 'a', quantity: 2, value: 0 }] })).toEqual({});
  });
});

describe('warrantyUntil', () => {
  it.each([
    ['2026-01-10', 90, '2026-04-10'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2026-01-10', 0, ''],
    ['10/01/2026', 30, ''],
    ['2026-01-10', null, ''],
  ])('%s + %s days', (date, days, want) => {
    expect(warrantyUntil(date, days)).toBe(want);
  });
});

describe('docSelector', () => {
  it('searches a number or the text fields, with the filter', () => {
    expect(docSelector({ klass: 'Estimate', q: '#12', searchIn: ['number', 'description'], filter: { state: 'sent' } })).toEqual({ klass: 'Estimate', state: 'sent', number: 12 });
    expect(docSelector({ klass: 'Contract', q: 'a.b', searchIn: ['description', 'payment_kind'] })).toEqual({
      klass: 'Contract',
      $or: [{ description: { $regex: '(?i)a\\.b' } }, { payment_kind: { $regex: '(?i)a\\.b' } }],
    });
  });
});

function Editor({ errors = {}, currency = 'USD' }: { errors?: Record<string, string>; currency?: string }) {
  const [items, setItems] = useState<EstimateItem[]>([emptyItem()]);
  return <EstimateItemsEditor currency={currency} items={items} onChange={setItems} fieldError={(f) => errors[f]} />;
}

describe('EstimateItemsEditor', () => {
  it('adds and removes lines and keeps the total live', async () => {
    const user = userEvent.setup();
    render(<Editor />);
    // One line: it cannot be removed.
    expect(screen.getByTestId('remove-item')).toBeDisabled();
    await user.type(screen.getByLabelText(/Unit value/), '10.50');
    await user.click(screen.getByTestId('add-item'));
    const rows = screen.getAllByTestId('estimate-item');
    expect(rows).toHaveLength(2);
    const second = within(rows[1]!);
    await user.clear(second.getByLabelText('Quantity'));
    await user.type(second.getByLabelText('Quantity'), '3');
    await user.type(second.getByLabelText(/Unit value/), '2');
    expect(screen.getByTestId('estimate-total')).toHaveTextContent('US$16.50');
    await user.click(within(rows[0]!).getByTestId('remove-item'));
    expect(screen.getAllByTestId('estimate-item')).toHaveLength(1);
    expect(screen.getByTestId('estimate-total')).toHaveTextContent('US$6.00');
  });

  it("says money in the Group's currency, not the interface language's (issue 22 item 15)", async () => {
    const user = userEvent.setup();
    render(<Editor currency="BRL" />);
    await user.type(screen.getByLabelText(/Unit value/), '10.50');
    expect(screen.getByTestId('estimate-total')).toHaveTextContent('R$10.50');
    expect(screen.getByTestId('estimate-total')).not.toHaveTextContent('US$');
  });

  it('shows a server error under its line and field', () => {
    render(<Editor errors={{ 'items[0].quantity': 'must be greater than or equal to 1' }} />);
    expect(screen.getByLabelText('Quantity')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('must be greater than or equal to 1')).toBeInTheDocument();
  });
});
