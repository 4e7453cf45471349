// "Load content": POST /{db}/_reader/items/{id}/content — the server fetches
// the original page (through its SSRF guard), keeps the readable part,
// sanitised, and answers it.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, enc } from '../../../lib/api';
import type { ReaderItem } from './types';

export interface LoadedContent {
  ok: boolean;
  id: string;
  rev: string;
  content: string;
  content_type: 'html';
}

export const loadContent = (db: string, id: string) => api.post<LoadedContent>(`${enc(db)}/_reader/items/${enc(id)}/content`, {});

export function useLoadContent(db: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => loadContent(db, id),
    onSuccess: (res) => {
      qc.setQueryData<ReaderItem>(['reader', db, 'item', res.id], (doc) =>
        doc ? { ...doc, _rev: res.rev, content: res.content, content_type: 'html', content_loaded: true } : doc,
      );
    },
  });
}
