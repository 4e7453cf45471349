// System notifications (SPEC §7 External): the product's announcements feed,
// fetched by the server; only entries under 16 days old and in the UI
// language come back.

import { queryOptions } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';

export interface SystemNotification {
  title: string;
  url?: string;
  summary?: string;
  posted_at: string;
  lang: string;
}

export const notificationsQuery = (db: string, locale: string) =>
  queryOptions({
    queryKey: ['reader', db, 'notifications', locale],
    queryFn: () => api.get<{ notifications: SystemNotification[] }>(`${enc(db)}/_reader/notifications`, { locale }),
    staleTime: 10 * 60_000,
    retry: false,
  });
