import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initI18n } from './lib/i18n';
import { queryClient } from './lib/query-client';

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

void initI18n().finally(() => {
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
});
