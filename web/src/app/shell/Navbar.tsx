// The navigation bar (SPEC §2): brand, module menu items with the open-ticket
// counter, the "Others" menu with its admin group, loading spinner, theme
// toggle and user menu (or sign-in links when signed out).

import { Button, Flex, Loader, VisuallyHidden } from '@aws-amplify/ui-react';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { lazy, Suspense, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useNavigation } from 'react-router';
import { CounterBadge } from '../../components/CounterBadge';
import { AppIcon } from '../../components/icons';
import { ButtonLink } from '../../components/RouterLink';
import { isEnabled, moduleFlags, useAccountConfig } from '../../lib/account-config';
import { useActiveDb } from '../../lib/active-db';
import { availableModules, useModule } from '../../lib/module';
import { useOpenTickets } from '../../lib/open-tickets';
import { paths } from '../../lib/paths';
import type { Session } from '../../lib/session';
import { useThemeMode } from '../../lib/theme';
import { mainItems, othersMenu, type NavItem } from './nav-items';

// The dropdown menus (Radix under Amplify's Menu) are a large chunk that a
// signed-out visitor never needs: they load on their own, after the shell.
const UserMenu = lazy(() => import('./UserMenu').then((m) => ({ default: m.UserMenu })));
const OthersMenu = lazy(() => import('./OthersMenu').then((m) => ({ default: m.OthersMenu })));
const AccountSwitcher = lazy(() => import('./AccountSwitcher').then((m) => ({ default: m.AccountSwitcher })));
// Live updates run only in a session: a signed-out visitor never loads the channel.
const LiveUpdates = lazy(() => import('../../features/live/components/LiveUpdates').then((m) => ({ default: m.LiveUpdates })));

function LoadingSpinner() {
  const { t } = useTranslation();
  const fetching = useIsFetching();
  const mutating = useIsMutating();
  const navigation = useNavigation();
  const busy = fetching + mutating > 0 || navigation.state !== 'idle';
  return (
    <span className="navbar__spinner" role="status" aria-live="polite" data-testid="loading-spinner" data-busy={busy}>
      {busy ? (
        <>
          <Loader size="small" />
          <VisuallyHidden>{t('common.loading')}</VisuallyHidden>
        </>
      ) : null}
    </span>
  );
}

function NavItemLink({ item, openTickets, onNavigate }: { item: NavItem; openTickets: number; onNavigate: () => void }) {
  const { t } = useTranslation();
  return (
    <NavLink to={item.to} end={item.key === 'dashboard'} className="navbar__link" onClick={onNavigate} data-testid={`nav-${item.key}`}>
      <AppIcon name={item.icon} />
      <span>{t(item.label)}</span>
      {item.counter === 'open-tickets' ? <CounterBadge count={openTickets} label={t('nav.openTickets')} /> : null}
    </NavLink>
  );
}

/** Room kept for the "Others" button when items move into it. */
const OTHERS_ROOM_PX = 110;

/**
 * useFittingItems counts the menu items that fit the navbar's row at the
 * current width (issue 22 item 10): the rest go into the "Others" menu, so
 * the bar stays one row at 1280 px with a long Group name and every module
 * on. Widths come from a hidden copy of the items, so hiding one never
 * changes what is measured. Below 48em the items live in the toggle menu
 * and all of them show.
 */
function useFittingItems(count: number, language: string) {
  const nav = useRef<HTMLElement>(null);
  const measure = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(count);
  useLayoutEffect(() => {
    const el = nav.current;
    const row = measure.current;
    if (!el || !row || typeof ResizeObserver === 'undefined') return;
    const compute = () => {
      if (window.matchMedia?.('(max-width: 48em)').matches) {
        setFit(count);
        return;
      }
      const gap = Number.parseFloat(getComputedStyle(el).columnGap) || 0;
      const widths = [...row.children].map((c) => c.getBoundingClientRect().width + gap);
      const all = widths.reduce((a, b) => a + b, 0);
      if (all <= el.clientWidth) {
        setFit(count);
        return;
      }
      let used = OTHERS_ROOM_PX;
      let n = 0;
      while (n < widths.length && used + widths[n]! <= el.clientWidth) used += widths[n++]!;
      setFit(n);
    };
    compute();
    const ro = new ResizeObserver(compute);
    ro.observe(el);
    return () => ro.disconnect();
  }, [count, language]);
  return { nav, measure, fit };
}

export function Navbar({ session, onLogout, userLabel }: { session: Session | null; onLogout: () => void; userLabel: string }) {
  const { t, i18n } = useTranslation();
  const { mode, toggle } = useThemeMode();
  const module = useModule();
  const activeDb = useActiveDb();
  const accountId = session ? activeDb : null;
  const config = useAccountConfig(accountId);
  const modules = availableModules(window.location.hostname, moduleFlags(config));
  const openTickets = useOpenTickets(accountId, module === 'ticket');
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);

  const items = accountId ? mainItems(module, accountId) : [];
  const others = accountId ? othersMenu(accountId, { rdisk: isEnabled(config.rdisk) }) : null;
  const { nav, measure, fit } = useFittingItems(items.length, i18n.language);
  const shown = items.slice(0, fit);
  const moved = items.slice(fit);

  return (
    <header className="navbar" data-testid="navbar">
      <a href="#main" className="skip-link">
        {t('nav.skip')}
      </a>
      <Flex alignItems="center" gap="small" className="navbar__inner">
        <NavLink to={accountId ? paths.dashboard(accountId) : paths.home()} className="navbar__brand" aria-label={t('nav.brand')}>
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Oficina</span>
        </NavLink>
        {session ? (
          <Suspense fallback={<span className="navbar__menu-placeholder" aria-hidden="true" />}>
            <AccountSwitcher current={accountId} />
          </Suspense>
        ) : null}
        {items.length > 0 ? (
          <Button
            className="navbar__toggle"
            size="small"
            variation="link"
            aria-expanded={open}
            aria-controls="navbar-menu"
            onClick={() => setOpen((o) => !o)}
          >
            <AppIcon name="menu" />
            <VisuallyHidden>{t('nav.menu')}</VisuallyHidden>
          </Button>
        ) : null}
        <nav ref={nav} id="navbar-menu" className={`navbar__menu${open ? ' navbar__menu--open' : ''}`} aria-label={t('nav.main')} data-fit={fit}>
          {shown.map((item) => (
            <NavItemLink key={item.key} item={item} openTickets={openTickets} onNavigate={close} />
          ))}
          {others ? (
            <Suspense fallback={null}>
              <OthersMenu others={others} moved={moved} />
            </Suspense>
          ) : null}
          <div ref={measure} className="navbar__measure" aria-hidden="true">
            {items.map((item) => (
              <span key={item.key} className="navbar__link">
                <AppIcon name={item.icon} />
                <span>{t(item.label)}</span>
                {item.counter ? <CounterBadge count={openTickets} label="" /> : null}
              </span>
            ))}
          </div>
        </nav>
        <Flex alignItems="center" gap="xs" marginInlineStart="auto">
          {session ? (
            <Suspense fallback={null}>
              <LiveUpdates userDb={session.userId} groupDb={accountId} roles={session.roles} />
            </Suspense>
          ) : null}
          <LoadingSpinner />
          <Button
            size="small"
            variation="link"
            onClick={toggle}
            aria-label={mode === 'dark' ? t('nav.lightMode') : t('nav.darkMode')}
            title={mode === 'dark' ? t('nav.lightMode') : t('nav.darkMode')}
            data-testid="theme-toggle"
            aria-pressed={mode === 'dark'}
          >
            <AppIcon name={mode === 'dark' ? 'sun' : 'moon'} />
          </Button>
          {session ? (
            <Suspense fallback={<span className="navbar__menu-placeholder" aria-hidden="true" />}>
              <UserMenu modules={modules} onLogout={onLogout} userLabel={userLabel || t('nav.account')} />
            </Suspense>
          ) : (
            <>
              <ButtonLink to={paths.login()} size="small" variation="link">
                {t('nav.login')}
              </ButtonLink>
              <ButtonLink to={paths.register()} size="small" variation="primary">
                {t('nav.register')}
              </ButtonLink>
            </>
          )}
        </Flex>
      </Flex>
    </header>
  );
}
