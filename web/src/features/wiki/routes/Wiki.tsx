// Arrives with its module (issue 4 part 2 and the module issues); the route,
// its guard and the active db are already in place.

import { useTranslation } from 'react-i18next';
import { PendingScreen } from '../../../components/PendingScreen';

export function Component() {
  const { t } = useTranslation();
  return <PendingScreen title={t('nav.wiki')} icon="wiki" area="wiki" />;
}
