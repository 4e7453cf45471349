// Phone numbers as a shop types them, in its Group's country: checked and
// shown with libphonenumber-js (Google's numbering metadata, loaded only on
// the screens that show or edit phones, the full metadata, so it agrees with the server's) and linked to
// WhatsApp in E.164, as the server stores them (shared/phones).

import { useEffect, useState } from 'react';
import { useAccountConfig, type AccountConfig } from './account-config';
import { useTextsIn } from './i18n';

type PhoneLib = typeof import('libphonenumber-js/max');

let loading: Promise<PhoneLib> | null = null;

/** loadPhoneLib loads the phone library once. */
export function loadPhoneLib(): Promise<PhoneLib> {
  loading ??= import('libphonenumber-js/max');
  return loading;
}

/** usePhoneLib gives the phone library once it has loaded (null before). */
export function usePhoneLib(): PhoneLib | null {
  const [lib, setLib] = useState<PhoneLib | null>(null);
  useEffect(() => {
    let live = true;
    void loadPhoneLib().then((l) => {
      if (live) setLib(() => l);
    });
    return () => {
      live = false;
    };
  }, []);
  return lib;
}

/** The server's words for a number that is not one (shared/phones), so both read the same. */
export const PHONE_INVALID = 'is not a valid phone number';

/** regionName: "Brazil" / "Brasil" for BR. */
export function regionName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The country a Group's language suggests, as on the server (shared/phones). */
export function countryOfLocale(locale: unknown): string {
  return typeof locale === 'string' && locale.toLowerCase().startsWith('pt') ? 'BR' : 'US';
}

/** groupCountry: the Group's country setting, else the one its language suggests. */
export function groupCountry(cfg: AccountConfig): string {
  const c = typeof cfg.country === 'string' ? cfg.country.trim().toUpperCase() : '';
  return /^[A-Z]{2}$/.test(c) ? c : countryOfLocale(cfg.locale);
}

const PORTUGUESE = ['BR', 'PT', 'AO', 'MZ', 'CV', 'GW', 'ST', 'TL'];

/** groupLanguage: the language the Group speaks to its customers — its language setting, else its country's. */
export function groupLanguage(cfg: AccountConfig): 'en' | 'pt-BR' {
  if (cfg.locale === 'en' || cfg.locale === 'pt-BR') return cfg.locale;
  return PORTUGUESE.includes(groupCountry(cfg)) ? 'pt-BR' : 'en';
}

/** checkPhone reads raw in country: its E.164 form, or null when it is not a phone number. Blank is fine. */
export function checkPhone(lib: PhoneLib, raw: string, country: string): { e164: string | null; blank: boolean } {
  const text = raw.trim();
  if (!text) return { e164: null, blank: true };
  try {
    const n = lib.parsePhoneNumberFromString(text, country as Parameters<PhoneLib['parsePhoneNumberFromString']>[1]);
    return { e164: n && n.isValid() ? n.number : null, blank: false };
  } catch {
    return { e164: null, blank: false };
  }
}

/** formatPhone shows a stored number: nationally when of country, else internationally; as stored when unreadable. */
export function formatPhone(lib: PhoneLib | null, number: string, country: string): string {
  if (!lib) return number;
  try {
    const n = lib.parsePhoneNumberFromString(number, country as Parameters<PhoneLib['parsePhoneNumberFromString']>[1]);
    if (!n || !n.isValid()) return number;
    return n.country === country ? n.formatNational() : n.formatInternational();
  } catch {
    return number;
  }
}

/**
 * whatsappLink: wa.me wants the full international number, digits only.
 * Numbers are stored in E.164; one kept from before that is read in the
 * Group's country (with the library loaded) rather than guessed.
 */
export function whatsappLink(lib: PhoneLib | null, number: string, country: string, text: string): string | null {
  let e164 = number.trim().startsWith('+') ? number.trim() : null;
  if (!e164 && lib) e164 = checkPhone(lib, number, country).e164;
  const digits = (e164 ?? '').replace(/\D/g, '');
  if (digits.length < 8) return null;
  return `https://wa.me/${digits}?text=${encodeURIComponent(text)}`;
}

export interface GroupPhones {
  lib: PhoneLib | null;
  /** The Group's country (ISO 3166-1 alpha-2): how typed numbers are read. */
  country: string;
  /** The language the Group writes to customers in. */
  language: 'en' | 'pt-BR';
  /** t() in that language (WhatsApp messages). */
  tCustomer: ReturnType<typeof useTextsIn>;
  format: (number: string) => string;
  /** The wa.me link to number with text, or null when the number cannot take one. */
  whatsapp: (number: string, text: string) => string | null;
  /** check: the E.164 form of raw, null when it is not a phone number (blank: nothing typed); undefined while loading. */
  check: (raw: string) => { e164: string | null; blank: boolean } | undefined;
}

/** useGroupPhones: a Group's way with phone numbers, for its screens. */
export function useGroupPhones(db: string | null): GroupPhones {
  const cfg = useAccountConfig(db);
  const lib = usePhoneLib();
  const country = groupCountry(cfg);
  const language = groupLanguage(cfg);
  const tCustomer = useTextsIn(language);
  return {
    lib,
    country,
    language,
    tCustomer,
    format: (n) => formatPhone(lib, n, country),
    whatsapp: (n, text) => whatsappLink(lib, n, country, text),
    check: (raw) => (lib ? checkPhone(lib, raw, country) : undefined),
  };
}
