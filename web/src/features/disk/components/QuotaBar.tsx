import { Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../lib/format';
import { diskKeys, fetchUsage } from '../api/drive';

/** QuotaBar: bytes used of the plan's limit, and what the trash holds. */
export function QuotaBar({ db }: { db: string }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({ queryKey: diskKeys.usage(db), queryFn: () => fetchUsage(db) });
  if (!q.data) return <div className="disk-quota" data-testid="disk-quota" aria-busy={q.isPending} />;
  const u = q.data;
  const lang = i18n.language;
  const pct = u.limit > 0 ? Math.min(100, (u.bytes / u.limit) * 100) : 0;
  const level = pct >= 95 ? 'full' : pct >= 80 ? 'high' : 'ok';
  return (
    <div className="disk-quota" data-testid="disk-quota">
      <div
        className={`disk-quota__bar disk-quota__bar--${level}`}
        role="progressbar"
        aria-label={t('disk.quota.label')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(pct)}
      >
        <span style={{ width: `${pct}%` }} />
      </div>
      <Text fontSize="small" variation="secondary">
        {u.limit > 0
          ? t('disk.quota.used', { used: formatBytes(u.bytes, lang), limit: formatBytes(u.limit, lang) })
          : t('disk.quota.usedNoLimit', { used: formatBytes(u.bytes, lang) })}
        {' · '}
        {t('disk.quota.trash', { bytes: formatBytes(u.trash_bytes, lang), count: u.trash_entries })}
      </Text>
    </div>
  );
}
