// Customers, equipment and categories of the desk: their show screens'
// lists, the category list for pickers and filters, and saving.

import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { recordLabelQuery } from '../../../components/records/RecordPicker';
import { find, getDoc, saveDoc, type WriteResult } from '../../../lib/couch';
import { liveDoc, liveKlasses } from '../../../lib/live-deps';
import type { Category, Customer, Equipment } from './types';

export const customerQuery = (db: string, id: string) =>
  queryOptions({ queryKey: ['tickets', db, 'customer', id], queryFn: () => getDoc<Customer>(db, id), retry: false, meta: liveDoc(id) });

/**
 * useCustomer reads a customer, starting from the copy a list's link to it
 * already read (RecordLink reads the whole record for its name): a ticket
 * opened from the tickets list shows its customer card without reading the
 * customer again, and reads it when that copy is stale or missing.
 */
export function useCustomer(db: string, id: string | null | undefined) {
  const qc = useQueryClient();
  const linked = recordLabelQuery(db, id ?? '', 'name').queryKey;
  return useQuery({
    ...customerQuery(db, id ?? ''),
    enabled: !!db && !!id,
    initialData: () => qc.getQueryData<Customer>(linked),
    initialDataUpdatedAt: () => qc.getQueryState(linked)?.dataUpdatedAt,
  });
}

export const equipmentQuery = (db: string, id: string) =>
  queryOptions({ queryKey: ['tickets', db, 'equipment', id], queryFn: () => getDoc<Equipment>(db, id), retry: false, meta: liveDoc(id) });

export const categoryQuery = (db: string, id: string) =>
  queryOptions({ queryKey: ['tickets', db, 'category', id], queryFn: () => getDoc<Category>(db, id), retry: false, meta: liveDoc(id) });

export const equipmentOfQuery = (db: string, customerId: string) =>
  queryOptions({
    queryKey: ['tickets', db, 'equipment-of', customerId],
    queryFn: () =>
      find<Equipment>(db, { selector: { klass: 'Equipment', customer_id: customerId }, sort: [{ identifier: 'asc' }], limit: 100 }).then((r) => r.docs ?? []),
    meta: liveKlasses('Equipment'),
  });

/** Every category (a shop has tens, not thousands): the filter and the picker with colours. */
export const categoriesQuery = (db: string) =>
  queryOptions({
    queryKey: ['tickets', db, 'categories'],
    queryFn: () => find<Category>(db, { selector: { klass: 'Category' }, sort: [{ name: 'asc' }], limit: 500 }).then((r) => r.docs ?? []),
    meta: liveKlasses('Category'),
  });

export function saveRecord(db: string, klass: string, doc: Record<string, unknown> & { _id?: string }): Promise<WriteResult> {
  return saveDoc(db, klass, doc);
}
