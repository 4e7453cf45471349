import { useTranslation } from 'react-i18next';
import { useActiveDb } from '../lib/active-db';
import { paths } from '../lib/paths';
import { EmptyState } from './EmptyState';
import type { IconName } from './icons';
import { Page } from './Page';
import { ButtonLink } from './RouterLink';

/**
 * PendingScreen stands where a module's screen will be: the route already
 * resolves, guards and sets the active db; the screen says it is on its way.
 */
export function PendingScreen({ title, icon = 'settings' }: { title: string; icon?: IconName }) {
  const { t } = useTranslation();
  const db = useActiveDb();
  return (
    <Page title={title}>
      <EmptyState
        icon={icon}
        title={t('pending.title')}
        message={t('pending.message')}
        testId="pending-screen"
        action={
          <ButtonLink to={db ? paths.dashboard(db) : paths.home()} variation="primary">
            {db ? t('pending.toDashboard') : t('pending.toHome')}
          </ButtonLink>
        }
      />
    </Page>
  );
}
