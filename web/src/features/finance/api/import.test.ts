import { describe, expect, it } from 'vitest';
import { dynamicMessage, mergeOverrides, problemLine, toQuery } from './import';

describe('statement import calls', () => {
  it('sends changed options, columns, a tab, kept lines and a new detection as query parameters', () => {
    expect(
      toQuery('wll-1', { options: { delimiter: '\t', first_line_is_header: false, skip: 2 }, columns: { date: 0, debit: -1 }, keep: [4, 9] }),
    ).toEqual({ wallet_id: 'wll-1', delimiter: 'tab', first_line_is_header: 'false', skip: '2', col_date: 0, col_debit: -1, keep: '4,9' });
    expect(toQuery('wll-1', { detect: true })).toEqual({ wallet_id: 'wll-1', detect: 'true' });
  });

  it('adds each change to the choices so far; detecting again starts over', () => {
    const a = mergeOverrides({}, { options: { decimal: ',' } });
    const b = mergeOverrides(a, { columns: { value: 2 } });
    expect(b).toEqual({ options: { decimal: ',' }, columns: { value: 2 } });
    expect(mergeOverrides(b, { detect: true })).toEqual({ detect: true });
    expect(mergeOverrides({ detect: true }, { options: { skip: 1 } })).toEqual({ options: { skip: 1 }, columns: {} });
  });

  it('splits a problem into its line and message, and recognises messages with values', () => {
    expect(problemLine('line 7: The date column or format is wrong')).toEqual({ line: 7, message: 'The date column or format is wrong' });
    expect(problemLine('At least 3 column headers must be matched')).toEqual({ line: null, message: 'At least 3 column headers must be matched' });
    expect(dynamicMessage('"twelve" is not an amount')).toEqual({ key: 'finance.upload.messages.notAmount', values: { value: 'twelve' } });
    expect(dynamicMessage(`"1.005" has more decimals than the wallet's 2`)?.values).toEqual({ value: '1.005', precision: '2' });
    expect(dynamicMessage('2 fields where the file has 3')?.values).toEqual({ got: '2', want: '3' });
    expect(dynamicMessage('The statement is in USD and the wallet in BRL')?.key).toBe('finance.upload.messages.otherCurrency');
    expect(dynamicMessage('The date column or format is wrong')).toBeNull();
  });
});
