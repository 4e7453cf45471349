// The route table of SPEC §2, as data: each path with its name, its access
// rule and the screen module it lazily loads (one chunk per screen/module).

import type { Access } from '../lib/route-handle';

export interface ScreenModule {
  Component: React.ComponentType;
}

export interface RouteDef {
  path: string;
  name: string;
  access: Access;
  set?: string;
  /** A customer's page (status, approval): shown without the app's navbar and footer. */
  bare?: boolean;
  load: () => Promise<ScreenModule>;
}

const A = 'account/:account_id';

/** The resource sets with index, show, new and edit (SPEC §2). */
export const FULL_SETS = [
  'categories',
  'contracts',
  'customers',
  'equipment',
  'estimates',
  'exchanges',
  'maintenances',
  'mappings',
  'memberships',
  'outgos',
  'handbooks',
  'incomes',
  'transfers',
  'wallets',
  'reader_subscriptions',
  'reader_labels',
  'tickets',
] as const;

/** Entities with only a plural#show route (timeline change cards link there). */
export const SHOW_ONLY_SETS = [
  'accounts',
  'addresses',
  'adjustments',
  'contract_items',
  'crystals',
  'cloud_files',
  'phones',
  'plan_prices',
  'ticket_checklists',
  'user_tokens',
  'document_changes',
  'wallet_balances',
] as const;

/**
 * screen loads a signed-in screen through ./screens, a chunk of its own: the
 * landing page's entry chunk then carries one import() for all of them
 * instead of each screen's list of preloads (about 3 KB of the first
 * route's 150 KB budget). A signed-in page load fetches that small chunk
 * before its screen.
 */
const screen = (name: string) => (): Promise<ScreenModule> => import('./screens').then((m) => m.loadScreen(name));

/** signedIn is a signed-in route: its screen is the one screens.ts has under its name. */
const signedIn = (def: Omit<RouteDef, 'load'>): RouteDef => ({ ...def, load: screen(def.name) });

function fullSet(set: string): RouteDef[] {
  return [
    signedIn({ path: `${A}/${set}`, name: `${set}#index`, access: 'account', set }),
    signedIn({ path: `${A}/${set}/new`, name: `${set}#new`, access: 'account', set }),
    signedIn({ path: `${A}/${set}/:record_id`, name: `${set}#show`, access: 'account', set }),
    signedIn({ path: `${A}/${set}/:record_id/edit`, name: `${set}#edit`, access: 'account', set }),
  ];
}

export const ROUTES: RouteDef[] = [
  { path: '', name: 'home', access: 'public', load: () => import('../features/home/routes/Home') },
  signedIn({ path: 'app', name: 'app', access: 'user-no-account' }),
  signedIn({ path: 'app.html', name: 'appHtml', access: 'user-no-account' }),

  { path: 'user/login', name: 'user#login', access: 'public', load: () => import('../features/auth/routes/Login') },
  { path: 'user/register', name: 'user#register', access: 'public', load: () => import('../features/auth/routes/Register') },
  signedIn({ path: 'user/profile', name: 'user#profile', access: 'user'}),
  { path: 'invite', name: 'invite', access: 'public', load: () => import('../features/profile/routes/Invite') },
  signedIn({ path: 'user/newsletter', name: 'user#newsletter', access: 'user'}),
  { path: 'user/confirm/new', name: 'confirm#new', access: 'public', load: () => import('../features/auth/routes/ConfirmNew') },
  { path: 'user/confirm/:token', name: 'confirm#show', access: 'public', load: () => import('../features/auth/routes/ConfirmShow') },
  { path: 'user/password/new', name: 'password#new', access: 'public', load: () => import('../features/auth/routes/PasswordNew') },
  { path: 'user/password/:token', name: 'password#show', access: 'public', load: () => import('../features/auth/routes/PasswordShow') },

  signedIn({ path: 'account/new', name: 'account#new', access: 'user-no-account' }),
  signedIn({ path: A, name: 'dashboard', access: 'account' }),
  signedIn({ path: `${A}/admin`, name: 'admin', access: 'account' }),
  signedIn({ path: `${A}/noop`, name: 'adminnoop', access: 'account' }),

  // Before the set's :record_id route, so "plan" is not read as an id.
  signedIn({ path: `${A}/maintenances/plan`, name: 'maintenances#plan', access: 'account', set: 'maintenances' }),
  ...FULL_SETS.flatMap(fullSet),
  signedIn({ path: `${A}/groups`, name: 'groups#index', access: 'account' }),
  signedIn({ path: `${A}/groups/new`, name: 'groups#new', access: 'account' }),
  signedIn({ path: `${A}/comments/:record_id`, name: 'comments#show', access: 'account', set: 'comments' }),
  signedIn({ path: `${A}/reader_items`, name: 'reader_items#index', access: 'account', set: 'reader_items' }),
  signedIn({ path: `${A}/reader_items/:record_id`, name: 'reader_items#show', access: 'account', set: 'reader_items' }),
  // The links app (features/links): not in SPEC §2's table.
  signedIn({ path: `${A}/bookmarks`, name: 'bookmarks#index', access: 'account', set: 'bookmarks' }),
  signedIn({ path: `${A}/users/:record_id`, name: 'users#show', access: 'account' }),
  ...SHOW_ONLY_SETS.map(
    (set) => signedIn({ path: `${A}/${set}/:record_id`, name: `${set}#show`, access: 'account', set }),
  ),

  signedIn({ path: 'disk', name: 'disk#index', access: 'account' }),
  signedIn({ path: 'disk/:dir_id', name: 'disk#show', access: 'account' }),
  signedIn({ path: 'ticket-board', name: 'tickets#board', access: 'account' }),
  signedIn({ path: 'wallets-upload', name: 'wallets#upload', access: 'account' }),
  signedIn({ path: 'wiki', name: 'wiki#index', access: 'account' }),
  signedIn({ path: 'usage', name: 'subscription#usage', access: 'account' }),
  signedIn({ path: 'billing', name: 'subscription#billing', access: 'account' }),
  signedIn({ path: 'checkout/:price_id', name: 'subscription#checkout', access: 'account' }),
  signedIn({ path: 'checkout', name: 'checkout', access: 'user-no-account' }),

  // The customer's pages, opened from a receipt's QR code or a shared link (no sign-in).
  { path: 's/:token', name: 'status#public', access: 'public', bare: true, load: () => import('../features/tickets/routes/PublicStatus') },
  { path: 'e/:token', name: 'estimate#public', access: 'public', bare: true, load: () => import('../features/tickets/routes/PublicEstimate') },

  { path: 'noop', name: 'noop', access: 'public', load: () => import('../features/system/routes/Noop') },
  { path: 'icons', name: 'icons', access: 'public', load: () => import('../features/system/routes/Icons') },

  { path: 'terms-and-conditions.html', name: 'terms', access: 'public', load: () => import('../features/legal/routes/Terms') },
  { path: 'privacy-policy.html', name: 'privacy', access: 'public', load: () => import('../features/legal/routes/Privacy') },
  { path: 'refund-policy.html', name: 'refund', access: 'public', load: () => import('../features/legal/routes/Refund') },
  { path: 'disclaimer.html', name: 'disclaimer', access: 'public', load: () => import('../features/legal/routes/Disclaimer') },

  { path: '*', name: 'not-found', access: 'public', load: () => import('../features/system/routes/NotFound') },
];
