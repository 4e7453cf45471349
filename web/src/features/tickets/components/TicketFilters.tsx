// The ticket filters (status, priority, category, customer, technician and
// "mine"), kept in the URL so a filtered list can be shared and reloaded.
// On a phone they wait in a sheet behind a "Filters" button that counts the
// active ones, so the tickets come first on the screen.

import { Badge, Button, Flex, SelectField, ToggleButton } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { RecordPicker } from '../../../components/records/RecordPicker';
import { categoriesQuery } from '../api/customers';
import type { TicketFilters as Filters } from '../api/tickets';
import { PRIORITIES, STATUSES } from '../api/types';
import { useNarrowScreen } from '../../../lib/narrow';
import { useLatestSearchParams } from '../../../lib/search-params';
import { PeopleOptions, usePeople } from './People';

export const FILTER_KEYS = ['status', 'priority', 'category', 'customer', 'technician', 'mine'] as const;

/** useTicketFilters reads the filters from the URL; me is the signed-in user (for "mine"). */
export function useTicketFilters(me: string): [Filters & { mineOn: boolean }, (k: string, v: string | null) => void, () => void] {
  const [sp, setSp] = useLatestSearchParams();
  const get = (k: string) => sp.get(k) || undefined;
  const mineOn = sp.get('mine') === '1';
  const filters = {
    status: get('status'),
    priority: get('priority'),
    category: get('category'),
    customer: get('customer'),
    technician: get('technician'),
    mine: mineOn ? me : undefined,
    q: get('q'),
    mineOn,
  };
  const set = (k: string, v: string | null) =>
    setSp(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (v) next.set(k, v);
        else next.delete(k);
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  const clear = () =>
    setSp(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const k of [...FILTER_KEYS, 'page']) next.delete(k);
        return next;
      },
      { replace: true },
    );
  return [filters, set, clear];
}

/** activeFilters counts the filters in use (the sheet's button shows it). */
export function activeFilters(filters: Filters & { mineOn: boolean }, withStatus = true): number {
  return FILTER_KEYS.filter((k) => (k === 'mine' ? filters.mineOn : k === 'status' && !withStatus ? false : !!filters[k as keyof Filters])).length;
}

type FilterProps = {
  db: string;
  filters: Filters & { mineOn: boolean };
  onChange: (k: string, v: string | null) => void;
  onClear: () => void;
  withStatus?: boolean;
};

/**
 * TicketFilterBar: the filters inline on a wide screen; on a phone a
 * "Filters" button opening them in a sheet.
 */
export function TicketFilterBar(props: FilterProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const narrow = useNarrowScreen();
  const n = activeFilters(props.filters, props.withStatus);
  if (!narrow) return <TicketFilters {...props} />;
  return (
    <>
      <div>
        <Button size="small" onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid="open-filters">
          <AppIcon name="filter" /> {t('tickets.filters')}
          {n > 0 ? (
            <Badge size="small" variation="info" marginInlineStart="xs" data-testid="filters-count">
              {n}
            </Badge>
          ) : null}
        </Button>
      </div>
      <Modal open={open} sheet title={t('tickets.filters')} onClose={() => setOpen(false)} closeLabel={t('common.close')} testId="filters-sheet">
        <Flex direction="column" gap="medium">
          <TicketFilters {...props} stacked />
          <Button variation="primary" onClick={() => setOpen(false)} data-testid="filters-done">
            {t('tickets.showTickets')}
          </Button>
        </Flex>
      </Modal>
    </>
  );
}

export function TicketFilters({
  db,
  filters,
  onChange,
  onClear,
  withStatus = true,
  stacked = false,
}: FilterProps & { stacked?: boolean }) {
  const { t } = useTranslation();
  const cats = useQuery(categoriesQuery(db));
  const people = usePeople(db);
  const any = activeFilters(filters) > 0;
  return (
    <Flex
      direction={stacked ? 'column' : 'row'}
      gap="small"
      wrap="wrap"
      alignItems={stacked ? 'stretch' : 'flex-end'}
      className={`ticket-filters${stacked ? ' ticket-filters--stacked' : ''}`}
      data-testid={stacked ? 'ticket-filters-sheet' : 'ticket-filters'}
      role="group"
      aria-label={t('tickets.filters')}
    >
      <ToggleButton size="small" isPressed={filters.mineOn} onChange={() => onChange('mine', filters.mineOn ? null : '1')} data-testid="filter-mine">
        {t('tickets.mine')}
      </ToggleButton>
      {withStatus ? (
        <SelectField label={t('fields.status')} size="small" value={filters.status ?? ''} onChange={(e) => onChange('status', e.target.value || null)} data-testid="filter-status">
          <option value="">{t('tickets.anyStatus')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`enums.status.${s}`)}
            </option>
          ))}
        </SelectField>
      ) : null}
      <SelectField label={t('fields.priority')} size="small" value={filters.priority ?? ''} onChange={(e) => onChange('priority', e.target.value || null)} data-testid="filter-priority">
        <option value="">{t('tickets.anyPriority')}</option>
        {PRIORITIES.map((p) => (
          <option key={p} value={p}>
            {t(`enums.priority.${p}`)}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('fields.category_id')} size="small" value={filters.category ?? ''} onChange={(e) => onChange('category', e.target.value || null)} data-testid="filter-category">
        <option value="">{t('tickets.anyCategory')}</option>
        {(cats.data ?? []).map((c) => (
          <option key={c._id} value={c._id}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('fields.technical_id')} size="small" value={filters.technician ?? ''} onChange={(e) => onChange('technician', e.target.value || null)} data-testid="filter-technician">
        <option value="">{t('tickets.anyone')}</option>
        <PeopleOptions people={people} selected={filters.technician} withFormer />
      </SelectField>
      <div className="ticket-filters__customer">
        <RecordPicker db={db} klass="Customer" label={t('fields.customer_id')} name="filter-customer" value={filters.customer ?? null} onChange={(id) => onChange('customer', id)} />
      </div>
      {any ? (
        <Button size="small" variation="link" onClick={onClear} data-testid="clear-filters">
          {t('tickets.clearFilters')}
        </Button>
      ) : null}
    </Flex>
  );
}
