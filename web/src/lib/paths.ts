// URL builders for the route table (SPEC §2), so no screen spells a path.

import { prefixOf } from './ids';

export const paths = {
  /** home, with the address to go back to once a Group is picked. */
  home: (returnTo?: string) => (returnTo ? `/?return=${encodeURIComponent(returnTo)}` : '/'),
  app: () => '/app',
  login: (returnTo?: string) => (returnTo ? `/user/login?return=${encodeURIComponent(returnTo)}` : '/user/login'),
  register: (returnTo?: string, email?: string) => {
    const q = new URLSearchParams();
    if (returnTo) q.set('return', returnTo);
    if (email) q.set('email', email);
    const s = q.toString();
    return s ? `/user/register?${s}` : '/user/register';
  },
  invite: () => '/invite',
  profile: (page?: string) => (page && page !== 'profile' ? `/user/profile?page=${page}` : '/user/profile'),
  newsletter: () => '/user/newsletter',
  confirmNew: () => '/user/confirm/new',
  confirmShow: (token: string) => `/user/confirm/${encodeURIComponent(token)}`,
  passwordNew: () => '/user/password/new',
  passwordShow: (token: string) => `/user/password/${encodeURIComponent(token)}`,
  accountNew: () => '/account/new',
  dashboard: (accountId: string) => `/account/${accountId}`,
  admin: (accountId: string) => `/account/${accountId}/admin`,
  adminNoop: (accountId: string) => `/account/${accountId}/noop`,
  index: (accountId: string, set: string) => `/account/${accountId}/${set}`,
  show: (accountId: string, set: string, id: string) => `/account/${accountId}/${set}/${encodeURIComponent(id)}`,
  create: (accountId: string, set: string) => `/account/${accountId}/${set}/new`,
  edit: (accountId: string, set: string, id: string) => `/account/${accountId}/${set}/${encodeURIComponent(id)}/edit`,
  disk: (dirId?: string) => (dirId ? `/disk/${encodeURIComponent(dirId)}` : '/disk'),
  ticketBoard: () => '/ticket-board',
  walletsUpload: () => '/wallets-upload',
  wiki: () => '/wiki',
  bookmarks: (accountId: string) => `/account/${accountId}/bookmarks`,
  usage: () => '/usage',
  billing: () => '/billing',
  checkout: (priceId?: string) => (priceId ? `/checkout/${encodeURIComponent(priceId)}` : '/checkout'),
  terms: () => '/terms-and-conditions.html',
  privacy: () => '/privacy-policy.html',
  refund: () => '/refund-policy.html',
  disclaimer: () => '/disclaimer.html',
  noop: () => '/noop',
  icons: () => '/icons',
};

/** The plural set of each id prefix: every entity's plural#show route (SPEC §2). */
export const SET_BY_PREFIX: Record<string, string> = {
  acc: 'accounts',
  adr: 'addresses',
  adj: 'adjustments',
  cmt: 'comments',
  cni: 'contract_items',
  cnt: 'contracts',
  crs: 'crystals',
  ctg: 'categories',
  cus: 'customers',
  eqi: 'equipment',
  est: 'estimates',
  exc: 'exchanges',
  fle: 'cloud_files',
  han: 'handbooks',
  inc: 'incomes',
  mai: 'maintenances',
  map: 'mappings',
  mem: 'memberships',
  out: 'outgos',
  pho: 'phones',
  ppr: 'plan_prices',
  rit: 'reader_items',
  rlb: 'reader_labels',
  rsb: 'reader_subscriptions',
  tch: 'ticket_checklists',
  tik: 'tickets',
  trn: 'transfers',
  tok: 'user_tokens',
  usr: 'users',
  ver: 'document_changes',
  wbl: 'wallet_balances',
  wll: 'wallets',
};

/** recordPath links any record id to its plural#show route. */
export function recordPath(accountId: string, id: string): string | null {
  const set = SET_BY_PREFIX[prefixOf(id)];
  return set ? paths.show(accountId, set, id) : null;
}

/** safeReturnPath keeps a ?return= target inside the app. */
export function safeReturnPath(v: string | null): string | null {
  if (!v || !v.startsWith('/') || v.startsWith('//') || v.startsWith('/\\')) return null;
  if (v.startsWith('/user/login')) return null;
  return v;
}
