import { useTranslation } from 'react-i18next';
import { DetailList } from '../../../components/records/RecordShow';
import type { UserDoc } from '../../../lib/current-user';
import { formatDateTime } from '../../../lib/format';

export function DataTab({ user, loading }: { user: UserDoc | undefined; loading: boolean }) {
  const { i18n } = useTranslation();
  return (
    <DetailList
      loading={loading}
      rows={[
        { key: 'id', label: 'fields._id', value: <code>{user?._id}</code> },
        { key: 'created_at', label: 'fields.created_at', value: formatDateTime(user?.created_at, i18n.language) },
        { key: 'updated_at', label: 'fields.updated_at', value: formatDateTime(user?.updated_at, i18n.language) },
      ]}
    />
  );
}
