import { describe, expect, it } from 'vitest';
import { asApiError, messageKey, reasonKey, titleKey } from './errors';

describe('reasonKey', () => {
  it.each([
    ['Email or password is incorrect', 'email-or-password-is-incorrect'],
    ["can't be blank", 'cant-be-blank'],
    ["doesn't match", 'doesnt-match'],
    ['must be accepted', 'must-be-accepted'],
    ['Document update conflict.', 'document-update-conflict'],
    ['Please fill in e-mail and password', 'please-fill-in-e-mail-and-password'],
    ['  You are not allowed to access this data.  ', 'you-are-not-allowed-to-access-this-data'],
    ['Não encontrado!', 'nao-encontrado'],
  ])('%s → %s', (reason, key) => {
    expect(reasonKey(reason)).toBe(key);
  });

  it('builds message keys from reasons', () => {
    expect(messageKey('Permission denied')).toBe('errors.messages.permission-denied');
  });
});

describe('titleKey', () => {
  it('keys known error names and falls back to Error', () => {
    expect(titleKey('conflict')).toBe('errors.titles.conflict');
    expect(titleKey('unprocessable_entity')).toBe('errors.titles.unprocessable_entity');
    expect(titleKey('something_new')).toBe('errors.titles.error');
  });
});

describe('asApiError', () => {
  it('wraps plain errors and unknown values', () => {
    expect(asApiError(new Error('boom')).reason).toBe('boom');
    expect(asApiError('x').reason).toBe('Undefined error');
  });
});
