import { SelectField } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { LOCALES, normalizeLocale, type AppLocale } from '../lib/i18n';

/** LanguageSelect offers en and pt-BR, each named in its own language. */
export function LanguageSelect({ onChange, size = 'small' }: { onChange: (l: AppLocale) => void; size?: 'small' | 'large' }) {
  const { t, i18n } = useTranslation();
  return (
    <SelectField
      label={t('common.language')}
      size={size}
      value={normalizeLocale(i18n.language) ?? 'en'}
      onChange={(e) => {
        const l = normalizeLocale(e.target.value);
        if (l) onChange(l);
      }}
      data-testid="language-select"
    >
      {LOCALES.map((l) => (
        <option key={l} value={l}>
          {t(`languages.${l}`)}
        </option>
      ))}
    </SelectField>
  );
}
