import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/errors';
import { validateFields, type FieldDef, type FormValues } from './fields';
import { RecordForm } from './RecordForm';
import { AUTOFOCUS_RETRY_MS } from './useAutofocus';

const FIELDS: FieldDef[] = [
  { name: 'name', type: 'text', required: true },
  { name: 'description', type: 'textarea' },
  { name: 'active', type: 'boolean' },
];

function Harness({ loading, error, onSubmit }: { loading: boolean; error?: ApiError | null; onSubmit?: (v: FormValues) => void }) {
  const [values, setValues] = useState<FormValues>({ name: 'Ana' });
  return (
    <RecordForm
      fields={FIELDS}
      values={values}
      onChange={(n, v) => setValues((x) => ({ ...x, [n]: v }))}
      onSubmit={() => onSubmit?.(values)}
      loading={loading}
      error={error ?? null}
    />
  );
}

afterEach(() => vi.useRealTimers());

describe('RecordForm', () => {
  it('retries the autofocus every 100 ms until the form stops loading', () => {
    vi.useFakeTimers();
    const { rerender } = render(<Harness loading />);
    act(() => vi.advanceTimersByTime(AUTOFOCUS_RETRY_MS * 3));
    expect(document.activeElement).toBe(document.body);
    rerender(<Harness loading={false} />);
    act(() => vi.advanceTimersByTime(AUTOFOCUS_RETRY_MS));
    expect(document.activeElement).toBe(screen.getByLabelText(/Name/));
  });

  it('has 10-row textareas and shows server field errors under their fields', () => {
    const error = new ApiError(422, 'unprocessable_entity', 'Your request failed', {
      name: ["can't be blank"],
      secret_field: ['is invalid'],
    });
    render(<Harness loading={false} error={error} />);
    expect(screen.getByLabelText('Description')).toHaveAttribute('rows', '10');
    expect(screen.getByLabelText(/Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText("can't be blank")).toBeInTheDocument();
    // A field the form does not show is listed in the alert instead.
    expect(screen.getByRole('alert')).toHaveTextContent('secret_field: is invalid');
    expect(screen.getByRole('alert')).toHaveTextContent('Your request failed');
  });

  it('says under the field what is wrong, with no "Your request failed" banner (issue 22 item 11)', () => {
    const error = new ApiError(422, 'unprocessable_entity', 'Your request failed', { name: ["can't be blank"] });
    render(<Harness loading={false} error={error} />);
    expect(screen.getByText("can't be blank")).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Your request failed')).toBeNull();
    expect(screen.getByLabelText(/Name/)).toHaveFocus();
    // A specific reason still reads in a banner.
    const conflict = new ApiError(409, 'conflict', 'Document update conflict.');
    render(<Harness loading={false} error={conflict} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Conflict');
  });

  it('refuses a web address that is not one before sending, under its field', async () => {
    const fields: FieldDef[] = [{ name: 'site', type: 'url' }];
    expect(validateFields(fields, { site: 'not a url' })).toEqual({ site: ['not a web address'] });
    expect(validateFields(fields, { site: 'ftp://example.com' })).toEqual({ site: ['not a web address'] });
    expect(validateFields(fields, { site: 'example.com' })).toEqual({ site: ['not a web address'] });
    expect(validateFields(fields, { site: 'https://example.com/a?b=c' })).toEqual({});
    expect(validateFields(fields, { site: '' })).toEqual({});
    const onSubmit = vi.fn();
    function Site() {
      const [values, setValues] = useState<FormValues>({ site: 'not a url' });
      return <RecordForm fields={fields} values={values} onChange={(n, v) => setValues((x) => ({ ...x, [n]: v }))} onSubmit={onSubmit} />;
    }
    render(<Site />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('must be a web address, like https://example.com')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits the edited values from the keyboard', async () => {
    const onSubmit = vi.fn();
    render(<Harness loading={false} onSubmit={onSubmit} />);
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/Name/));
    await user.type(screen.getByLabelText(/Name/), 'Oficina do Zé{Enter}');
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Oficina do Zé' });
  });
});

describe('validateFields (issue 8 item 17: a blank or wrong form sends nothing)', () => {
  const defs: FieldDef[] = [
    { name: 'name', type: 'text', required: true },
    { name: 'email', type: 'email' },
    { name: 'value', type: 'money', required: true },
    { name: 'start_balance', type: 'money', signed: true },
    { name: 'warranty', type: 'number' },
  ];
  it.each([
    ['a blank form', {}, { name: ["can't be blank"], value: ["can't be blank"] }],
    ['spaces only', { name: '   ', value: 1 }, { name: ["can't be blank"] }],
    ['a bad e-mail', { name: 'A', value: 1, email: 'ana@' }, { email: ['is invalid'] }],
    ['a negative amount', { name: 'A', value: -5 }, { value: ['must be greater than or equal to 0'] }],
    ['an amount still being typed', { name: 'A', value: Number.NaN }, { value: ['is not a number'] }],
    ['a number that is not one', { name: 'A', value: 1, warranty: Number.NaN }, { warranty: ['is not a number'] }],
    ['a negative opening balance', { name: 'A', value: 0, start_balance: -100 }, {}],
    ['a good record', { name: 'A', value: 1250, email: 'ana@example.com' }, {}],
  ])('%s', (_name, values, want) => {
    expect(validateFields(defs, values as FormValues)).toEqual(want);
  });

  it('keeps a blank required field from being sent and says why under it', async () => {
    const onSubmit = vi.fn();
    function Blank() {
      const [values, setValues] = useState<FormValues>({});
      return <RecordForm fields={FIELDS} values={values} onChange={(n, v) => setValues((x) => ({ ...x, [n]: v }))} onSubmit={() => onSubmit(values)} />;
    }
    render(<Blank />);
    await userEvent.click(screen.getByRole('button', { name: /save/i }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(await screen.findByText(/can.t be blank/i)).toBeTruthy();
  });
});
