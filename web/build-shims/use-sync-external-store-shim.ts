// react-i18next imports use-sync-external-store/shim for React before 18;
// React 19 has the hook itself, and the shim would only forward to it.
export { useSyncExternalStore } from 'react';
