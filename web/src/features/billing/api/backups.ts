// A Group's backups (shared/backup, SPEC §6): list, start one, download,
// and restore one into a new Group.

import { queryOptions } from '@tanstack/react-query';
import { api, apiUrl, enc } from '../../../lib/api';

export interface Backup {
  id: string;
  created_at: string;
  size: number;
  files: number;
  docs: number;
  with_contents: boolean;
}

export const backupsQuery = (db: string) =>
  queryOptions({
    queryKey: ['backups', db],
    queryFn: () => api.get<{ backups: Backup[] }>(`${enc(db)}/_backups`).then((r) => r.backups ?? []),
    staleTime: 30_000,
    retry: false,
  });

export function startBackup(db: string): Promise<{ id: string }> {
  return api.post(`${enc(db)}/_backups`, {});
}

export function restoreBackup(db: string, id: string, name: string): Promise<{ db: string }> {
  return api.post(`${enc(db)}/_backups/${enc(id)}/restore`, { name });
}

/** The .ndjson.gz download (a plain link: the session cookie goes along). */
export function backupUrl(db: string, id: string): string {
  return apiUrl(`${enc(db)}/_backups/${enc(id)}`);
}
