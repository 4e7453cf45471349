// The providers every screen relies on: query client, i18n (Suspense while
// the language chunk loads), theme and the router.

import '../amplify.css';
import '../styles.css';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { RouterProvider } from 'react-router';
import { PageLoader } from '../components/PageLoader';
import { DashboardSlotsContext } from '../lib/dashboard-slots';
import { ThemeModeProvider } from '../lib/theme';
import { dashboardSlots } from './dashboard-slots';
import { createAppRouter } from './router';

export function App({ queryClient }: { queryClient: QueryClient }) {
  const [router] = useState(() => createAppRouter(queryClient));
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeModeProvider>
        <DashboardSlotsContext.Provider value={dashboardSlots}>
          <Suspense fallback={<PageLoader />}>
            <RouterProvider router={router} />
          </Suspense>
        </DashboardSlotsContext.Provider>
      </ThemeModeProvider>
    </QueryClientProvider>
  );
}
