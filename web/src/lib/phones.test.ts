import { describe, expect, it } from 'vitest';
import { checkPhone, formatPhone, groupCountry, groupLanguage, loadPhoneLib, whatsappLink } from './phones';

describe('phones in the Group country', () => {
  it('reads what a Brazilian shop types and links it to WhatsApp with the country code', async () => {
    const lib = await loadPhoneLib();
    expect(checkPhone(lib, '(11) 98765-4321', 'BR')).toEqual({ e164: '+5511987654321', blank: false });
    expect(checkPhone(lib, '(11) 98765-4321', 'US').e164).toBeNull();
    expect(checkPhone(lib, '555', 'BR').e164).toBeNull();
    expect(checkPhone(lib, '  ', 'BR')).toEqual({ e164: null, blank: true });
    expect(formatPhone(lib, '+5511987654321', 'BR')).toBe('(11) 98765-4321');
    expect(formatPhone(lib, '+5511987654321', 'US')).toBe('+55 11 98765 4321');
    // The stored E.164 form; an old national number is read in the Group's country, never as +1.
    expect(whatsappLink(lib, '+5511987654321', 'BR', 'Olá & até')).toBe('https://wa.me/5511987654321?text=Ol%C3%A1%20%26%20at%C3%A9');
    expect(whatsappLink(lib, '(11) 98765-4321', 'BR', 'x')).toBe('https://wa.me/5511987654321?text=x');
    expect(whatsappLink(lib, '11987654321', 'US', 'x')).toBeNull();
    expect(whatsappLink(null, '11987654321', 'BR', 'x')).toBeNull();
  });
  it('takes the country and language from the Group settings', () => {
    expect(groupCountry({ country: 'br' })).toBe('BR');
    expect(groupCountry({ locale: 'pt-BR' })).toBe('BR');
    expect(groupCountry({})).toBe('US');
    expect(groupLanguage({ country: 'BR' })).toBe('pt-BR');
    expect(groupLanguage({ country: 'BR', locale: 'en' })).toBe('en');
    expect(groupLanguage({ country: 'US' })).toBe('en');
  });
});
