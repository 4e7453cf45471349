// What a module shows in the dashboard's main column (SPEC §2: a reader feed
// for exoreader, the recent-changes timeline for the others). The app
// wiring (app/dashboard-slots.ts) fills it with lazily loaded components,
// so the dashboard (features/accounts) shows a module's panel without
// importing that module's feature.

import { createContext, useContext, type ComponentType, type LazyExoticComponent } from 'react';
import type { AppModule } from './module';

export type DashboardPanel = LazyExoticComponent<ComponentType<{ db: string }>>;

export type DashboardSlots = Partial<Record<AppModule, DashboardPanel>>;

export const DashboardSlotsContext = createContext<DashboardSlots>({});

/** useDashboardPanel: the main-column panel of module, when it has one. */
export function useDashboardPanel(module: AppModule): DashboardPanel | undefined {
  return useContext(DashboardSlotsContext)[module];
}
