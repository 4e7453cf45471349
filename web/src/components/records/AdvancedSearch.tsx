// Advanced search (SPEC §2): items per page, order by, direction; it changes
// the URL, and the index reloads from the first page.

import { Button, Flex, SearchField, SelectField, ToggleButton, View } from '@aws-amplify/ui-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../icons';
import { PER_PAGE_OPTIONS, type Direction, type IndexParams, type IndexUpdate } from './search-params';

export interface SortOption {
  value: string;
  /** i18n key. */
  label: string;
}

export function AdvancedSearch({
  perPage,
  orderBy,
  direction,
  sortOptions,
  q,
  onSearch,
  onChange,
  searchable = false,
}: {
  perPage: number;
  orderBy: string;
  direction: Direction;
  sortOptions: SortOption[];
  q?: string;
  searchable?: boolean;
  onSearch?: (q: string) => void;
  onChange: (next: { perPage: number; orderBy: string; direction: Direction }) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <View marginBottom="medium" className="advanced-search">
      <Flex gap="small" alignItems="flex-end" wrap="wrap">
        {searchable && onSearch ? (
          <SearchField
            label={t('records.search')}
            labelHidden
            placeholder={t('records.searchPlaceholder')}
            defaultValue={q}
            onSubmit={(v) => onSearch(v)}
            onClear={() => onSearch('')}
            size="small"
          />
        ) : null}
        <ToggleButton
          size="small"
          isPressed={open}
          onChange={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls={panelId}
          data-testid="advanced-search-toggle"
        >
          <AppIcon name="settings" /> {t('records.advancedSearch')}
        </ToggleButton>
      </Flex>
      {open ? (
        <Flex id={panelId} gap="medium" wrap="wrap" marginTop="small" alignItems="flex-end" role="group" aria-label={t('records.advancedSearch')}>
          <SelectField
            label={t('records.perPage')}
            size="small"
            value={String(perPage)}
            onChange={(e) => onChange({ perPage: Number(e.target.value), orderBy, direction })}
          >
            {PER_PAGE_OPTIONS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('records.orderBy')}
            size="small"
            value={orderBy}
            onChange={(e) => onChange({ perPage, orderBy: e.target.value, direction })}
          >
            {sortOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {t(o.label)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('records.direction')}
            size="small"
            value={direction}
            onChange={(e) => onChange({ perPage, orderBy, direction: e.target.value === 'asc' ? 'asc' : 'desc' })}
          >
            <option value="asc">{t('records.asc')}</option>
            <option value="desc">{t('records.desc')}</option>
          </SelectField>
          <Button size="small" variation="link" onClick={() => setOpen(false)}>
            {t('common.close')}
          </Button>
        </Flex>
      ) : null}
    </View>
  );
}

/** IndexSearch: an index's advanced search bound to its URL (useIndexParams); a change reloads from the first page. */
export function IndexSearch({ params, update, order, searchable = false }: { params: IndexParams; update: IndexUpdate; order: readonly string[]; searchable?: boolean }) {
  return (
    <AdvancedSearch
      perPage={params.perPage}
      orderBy={params.orderBy}
      direction={params.direction}
      sortOptions={order.map((f) => ({ value: f, label: `fields.${f}` }))}
      q={params.q}
      searchable={searchable}
      onSearch={(v) => update({ q: v, page: null })}
      onChange={(n) => update({ per_page: n.perPage, order_by: n.orderBy, direction: n.direction, page: null })}
    />
  );
}
