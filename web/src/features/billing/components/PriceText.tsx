// A plan price as people read it: the amount in the locale's money format
// (cents / 100, SPEC §9) and its unit ("per 100 MB per month").

import { useTranslation } from 'react-i18next';
import { formatCents } from '../../../lib/format';
import type { PlanPrice } from '../api/prices';

export function usePriceText() {
  const { t, i18n } = useTranslation();
  return (p: PlanPrice | undefined): { amount: string; unit: string } => {
    if (!p) return { amount: '—', unit: '' };
    const amount = formatCents(p.unit_amount ?? 0, i18n.language);
    if (p.group_plan === 'free' || !p.unit_amount) return { amount, unit: t('billing.price.free') };
    if (p.unit_mb) return { amount, unit: t('billing.price.perMb', { mb: p.unit_mb }) };
    return { amount, unit: t('billing.price.fixed') };
  };
}

export function PriceText({ price }: { price: PlanPrice | undefined }) {
  const text = usePriceText()(price);
  return (
    <span className="price-text">
      <strong>{text.amount}</strong> <span className="price-text__unit">{text.unit}</span>
    </span>
  );
}
