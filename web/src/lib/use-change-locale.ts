// Switching language: applied at once and kept on the device; when signed in,
// also saved as the user's locale setting (SPEC §7).

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { applyLocale, type AppLocale } from './i18n';
import { saveLocaleSetting } from './locale-setting';
import { sessionQuery, useSession, type Session } from './session';

export function useChangeLocale(): (l: AppLocale) => Promise<void> {
  const session = useSession();
  const qc = useQueryClient();
  return useCallback(
    async (l: AppLocale) => {
      await applyLocale(l);
      if (session) {
        qc.setQueryData<Session | null>(sessionQuery.queryKey, (old) => (old ? { ...old, locale: l } : old));
        try {
          await saveLocaleSetting(session.userId, l);
          void qc.invalidateQueries({ queryKey: ['user', session.userId] });
        } catch {
          // the choice still holds on this device; the server copy is best effort
        }
      }
    },
    [session, qc],
  );
}
