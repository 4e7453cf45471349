// The money indexes' filters — wallet, category, month, state — kept in
// the URL (shareable, back-button safe); changing one goes back to page 1.

import { Button, Flex, SelectField, TextField } from '@aws-amplify/ui-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FILTER_KEYS, STATES, anyFilter, normalizeCategory, readFilters, validMonth, type RecordFilters as Filters } from '../filters';
import { WalletSelect } from './WalletSelect';
import { useLatestSearchParams } from '../../../lib/search-params';

export function useRecordFilters(): [Filters, (k: (typeof FILTER_KEYS)[number], v: string | null) => void, () => void] {
  const [sp, setSp] = useLatestSearchParams();
  const filters = useMemo(() => readFilters(sp), [sp]);
  const set = useCallback(
    (k: string, v: string | null) =>
      setSp((prev) => {
        const next = new URLSearchParams(prev);
        if (v) next.set(k, v);
        else next.delete(k);
        next.delete('page');
        return next;
      }),
    [setSp],
  );
  const clear = useCallback(
    () =>
      setSp((prev) => {
        const next = new URLSearchParams(prev);
        for (const k of [...FILTER_KEYS, 'page']) next.delete(k);
        return next;
      }),
    [setSp],
  );
  return [filters, set, clear];
}

export function RecordFilters({ db, filters, onChange, onClear }: { db: string; filters: Filters; onChange: (k: (typeof FILTER_KEYS)[number], v: string | null) => void; onClear: () => void }) {
  const { t } = useTranslation();
  const [category, setCategory] = useState(filters.category);
  useEffect(() => setCategory(filters.category), [filters.category]);
  const applyCategory = () => {
    const c = normalizeCategory(category);
    if (c !== filters.category) onChange('category', c || null);
  };
  return (
    <Flex gap="small" wrap="wrap" alignItems="flex-end" className="fin-filters" role="group" aria-label={t('finance.filters.label')} data-testid="record-filters">
      <WalletSelect db={db} label={t('fields.wallet_id')} name="filter-wallet" size="small" anyLabel={t('finance.filters.anyWallet')} value={filters.wallet || null} onChange={(id) => onChange('wallet', id)} testId="filter-wallet" />
      <form
        role="search"
        aria-label={t('finance.filters.category')}
        onSubmit={(e) => {
          e.preventDefault();
          applyCategory();
        }}
      >
        <TextField
          label={t('finance.filters.category')}
          name="filter-category"
          size="small"
          value={category}
          placeholder={t('finance.filters.categoryPlaceholder')}
          onChange={(e) => setCategory(e.target.value)}
          onBlur={applyCategory}
          data-testid="filter-category"
        />
      </form>
      <TextField
        className="fin-filters__month"
        label={t('finance.filters.month')}
        name="filter-month"
        type="month"
        size="small"
        value={filters.month}
        onChange={(e) => onChange('month', validMonth(e.target.value) ? e.target.value : null)}
        data-testid="filter-month"
      />
      <SelectField label={t('finance.filters.state')} name="filter-state" size="small" value={filters.state} onChange={(e) => onChange('state', e.target.value === 'all' ? null : e.target.value)} data-testid="filter-state">
        {STATES.map((s) => (
          <option key={s} value={s}>
            {t(`finance.filters.states.${s}`)}
          </option>
        ))}
      </SelectField>
      {anyFilter(filters) ? (
        <Button size="small" variation="link" onClick={onClear} data-testid="clear-filters">
          {t('finance.filters.clear')}
        </Button>
      ) : null}
    </Flex>
  );
}
