// Fetch the Group's feeds now (the "r" shortcut), or one subscription's:
// POST /{db}/_reader/refresh, POST /{db}/_reader/subscriptions/{id}/refresh.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';

export interface RefreshResult {
  ok: boolean;
  feeds: number;
  fetched: number;
  not_modified: number;
  failed: number;
  items: number;
  partial: boolean;
}

export const refreshFeeds = (db: string, subscriptionId?: string) =>
  api.post<RefreshResult>(
    subscriptionId ? `${enc(db)}/_reader/subscriptions/${enc(subscriptionId)}/refresh` : `${enc(db)}/_reader/refresh`,
    {},
  );

export function useRefreshFeeds(db: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (subscriptionId?: string) => refreshFeeds(db, subscriptionId),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['reader', db] });
    },
  });
}
