import { Alert, Button } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useNewVersion } from '../../lib/version';

/** VersionNotice asks to reload when a newer build is deployed. */
export function VersionNotice() {
  const { t } = useTranslation();
  const stale = useNewVersion();
  if (!stale) return null;
  return (
    <Alert variation="info" heading={t('version.title')} className="version-notice" data-testid="version-notice">
      {t('version.message')}{' '}
      <Button size="small" variation="primary" onClick={() => window.location.reload()}>
        {t('version.reload')}
      </Button>
    </Alert>
  );
}
