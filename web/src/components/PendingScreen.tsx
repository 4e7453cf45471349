import { useTranslation } from 'react-i18next';
import { useActiveDb } from '../lib/active-db';
import { paths } from '../lib/paths';
import { EmptyState } from './EmptyState';
import type { IconName } from './icons';
import { Page } from './Page';
import { ButtonLink } from './RouterLink';

/**
 * PendingScreen stands where a module's screen will be: the route already
 * resolves, guards and sets the active db; the screen says plainly what
 * is coming there and that it cannot be used yet.
 */
export type PendingArea = 'billing' | 'usage';

export function PendingScreen({ title, icon = 'settings', area }: { title: string; icon?: IconName; area: PendingArea }) {
  const { t } = useTranslation();
  const db = useActiveDb();
  return (
    <Page title={title}>
      <EmptyState
        icon={icon}
        title={t('pending.title')}
        message={t(`pending.areas.${area}`)}
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
