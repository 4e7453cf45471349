// The dashboard panels of the modules, each its own chunk, loaded when a
// dashboard of that module opens (lib/dashboard-slots), with its strings.

import { lazy } from 'react';
import type { DashboardSlots } from '../lib/dashboard-slots';
import { withStrings } from '../lib/i18n';

export const dashboardSlots: DashboardSlots = {
  exoreader: lazy(withStrings(() => import('../features/reader/components/DashboardFeed'))),
  organize3: lazy(withStrings(() => import('../features/finance/components/FinanceDashboard'))),
};
