// The desk's new/edit screens use the record kit's editor with the desk's
// query keys.

import { useRecordEditor as useKitEditor } from '../../../components/records/useRecordEditor';

export function useRecordEditor(set: string, klass: string, initial: Record<string, unknown>) {
  return useKitEditor(set, klass, initial, { scope: 'tickets' });
}
