// The shared locale files (locales/<lang>.json) load in two parts: the
// sections below load with the features' screens (the record kit's field
// names, enums and history, the server's error messages, the dashboard's
// and the system pages' strings), everything else at start, for the shell
// and the landing page. Both parts stay one file to edit; vite.config.ts
// splits it, lib/i18n.ts loads the parts, and locales/i18n.test.ts checks
// that the shell and the landing page use no key of these sections.
export const APP_SECTIONS = ['records', 'fields', 'enums', 'timeline', 'errors.messages', 'errors.bounded', 'dashboard', 'noop', 'icons', 'pending', 'notFound', 'limits', 'groupRefused', 'charts'] as const;

// The shell's parts that only a feature's screens show (a Group's screens,
// handle.access 'account', and the features' own routes): the router draws
// them once that screen's module, and with it the sections above, has
// loaded, so they may use those sections. RecordCrumbs (Crumbs.tsx),
// NoopPage and the charts (LazyChart) are drawn only by features' routes.
export const FEATURE_SHELL = ['components/LimitsBanner.tsx', 'app/shell/GroupRefused.tsx', 'components/Crumbs.tsx', 'components/NoopPage.tsx', 'components/charts/LazyChart.tsx'] as const;

type Tree = { [k: string]: unknown };

/** splitStrings cuts a shared locale tree into its start part and its app part (APP_SECTIONS). */
export function splitStrings(all: Tree, sections: readonly string[] = APP_SECTIONS): { start: Tree; app: Tree } {
  const start: Tree = structuredClone(all);
  const app: Tree = {};
  for (const section of sections) {
    const path = section.split('.');
    const last = path.pop()!;
    let from: Tree | undefined = start;
    let to: Tree = app;
    for (const k of path) {
      from = from?.[k] as Tree | undefined;
      to = (to[k] ??= {}) as Tree;
    }
    if (from && last in from) {
      to[last] = from[last];
      delete from[last];
    }
  }
  return { start, app };
}
