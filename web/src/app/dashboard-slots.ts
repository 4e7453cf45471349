// The dashboard panels of the modules, each its own chunk, loaded when a
// dashboard of that module opens (lib/dashboard-slots).

import { lazy } from 'react';
import type { DashboardSlots } from '../lib/dashboard-slots';

export const dashboardSlots: DashboardSlots = {
  exoreader: lazy(() => import('../features/reader/components/DashboardFeed')),
  organize3: lazy(() => import('../features/finance/components/FinanceDashboard')),
};
