import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import type { CurrentUser } from '@stat/schemas/accounts';
import { Dropdown } from '../components/Dropdown';
import { Notice } from '../components/ui';
import { readStored, storage, whenIdle, writeStored } from '../lib/browser';
import { ICONS } from './icons';
import { footerLinks, RELEASE_VERSION } from './links';
import { collapseKey, productMenu, resolveScope, type ProductItem } from './menu';
import { ProfileModal } from './ProfileModal';
import { PRODUCT_NAME } from '@stat/schemas/site';
import { useSession } from './session';
import styles from './Shell.module.css';

/** The note every report page carries (spec 000 §1). */
const MOSCOW_TIME_NOTE = 'Отчёты созданы по московскому времени (GMT+3)';

/** Storage key of the dismissed ad-blocker notice (spec 000 §2.2). */
const AD_BLOCK_KEY = 'adBlockHidden';

/** The ad-blocker notice's text (spec 000 §2.2). */
const AD_BLOCK_TEXT = 'У вас включен блокировщик рекламы';

/** Logo: a mark in the accent colour and the product name. */
function Logo({ small = false }: { readonly small?: boolean }) {
  return (
    <Link to="/stat/projects" className={small ? `${styles.logo} ${styles.logoSmall}` : styles.logo} aria-label="Статистика — мои сайты">
      <svg className={styles.logoMark} viewBox="0 0 24 24" aria-hidden="true">
        <rect width="24" height="24" rx="6" fill="currentColor" />
        <path d="M6.5 17v-4M12 17V7M17.5 17v-6.5" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
      </svg>
      <span className={styles.logoText}>{PRODUCT_NAME}</span>
    </Link>
  );
}


/** Header, left menu, content and footer around every screen (spec 000 §2.2). */
export function Shell({ children }: { readonly children?: ReactNode }) {
  const { user } = useSession();
  const [profileOpen, setProfileOpen] = useState(false);
  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <div className={styles.headerInner}>
          <Logo />
          <UserMenu onSettings={() => setProfileOpen(true)} />
        </div>
      </header>
      <div className={styles.middle}>
        {user ? <SideMenu user={user} onProfile={() => setProfileOpen(true)} /> : null}
        <main className={styles.main}>
          <AdBlockNotice />
          {children ?? <Outlet />}
        </main>
      </div>
      <Footer />
      {profileOpen && user ? <ProfileModal user={user} onClose={() => setProfileOpen(false)} /> : null}
    </div>
  );
}

/** The user menu: settings and logout; «Войти» for visitors. */
function UserMenu({ onSettings }: { readonly onSettings: () => void }) {
  const { state, logout } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  if (state.status === 'loading') return <span className={styles.userPlaceholder} aria-hidden="true" />;
  if (state.status === 'anonymous') {
    if (new URLSearchParams(location.search).has('login') || location.pathname === '/stat/projects') return <span className={styles.userPlaceholder} />;
    const back = `${location.pathname}${location.search}`;
    return (
      <Link className={styles.loginLink} to={`/stat/projects?login&back=${encodeURIComponent(back)}`} data-testid="header-login">
        Войти
      </Link>
    );
  }
  const { user } = state;
  const name = user.user_name || user.email;
  return (
    <Dropdown
      label="Меню пользователя"
      data-testid="user-menu"
      triggerClassName={styles.userButton}
      trigger={
        <>
          <span className={styles.avatar} aria-hidden="true">
            {name.slice(0, 1).toUpperCase()}
          </span>
          <span className={styles.userName}>{name}</span>
          {ICONS.chevronDown}
        </>
      }
      items={[
        { label: 'Настройки', onSelect: onSettings, 'data-testid': 'user-settings' },
        'separator',
        {
          label: 'Выйти',
          'data-testid': 'logout',
          onSelect: () => {
            void logout().finally(() => navigate('/stat/projects?login'));
          },
        },
      ]}
    />
  );
}

/**
 * The left menu (spec 000 §2.2): links to the advertising cabinet's sections by the stored scope,
 * statistics, profile. Its collapsed state is remembered per user.
 */
function SideMenu({ user, onProfile }: { readonly user: CurrentUser; readonly onProfile: () => void }) {
  const { search } = useLocation();
  const scope = useMemo(() => resolveScope(search, storage()), [search]);
  const items = useMemo(() => productMenu(scope, window.location.hostname), [scope]);
  const key = collapseKey(user.id);
  const [collapsed, setCollapsed] = useState(() => readStored(key) !== '0');
  useEffect(() => setCollapsed(readStored(key) !== '0'), [key]);
  const toggle = () => {
    setCollapsed((c) => {
      writeStored(key, c ? '0' : '1');
      return !c;
    });
  };
  const render = (item: ProductItem) => {
    const content = (
      <>
        <span className={styles.sideIcon}>{ICONS[item.id]}</span>
        <span className={styles.sideLabel}>{item.label}</span>
      </>
    );
    const title = collapsed ? item.label : undefined;
    if (item.id === 'profile') {
      return (
        <button key={item.id} type="button" className={styles.sideItem} onClick={onProfile} title={title} data-testid="side-profile">
          {content}
        </button>
      );
    }
    if (item.external) {
      return (
        <a key={item.id} className={styles.sideItem} href={item.href} title={title}>
          {content}
        </a>
      );
    }
    return (
      <NavLink key={item.id} to={item.href} className={({ isActive }) => (isActive || item.id === 'statistics' ? `${styles.sideItem} ${styles.sideActive}` : styles.sideItem)} title={title}>
        {content}
      </NavLink>
    );
  };
  return (
    <nav className={collapsed ? `${styles.side} ${styles.sideCollapsed}` : styles.side} aria-label="Сервисы" data-testid="side-menu" data-collapsed={collapsed}>
      <div className={styles.sideInner}>
      <div className={styles.sideItems}>{items.map(render)}</div>
      <button type="button" className={styles.sideToggle} onClick={toggle} aria-label={collapsed ? 'Развернуть меню' : 'Свернуть меню'} title={collapsed ? 'Развернуть меню' : 'Свернуть меню'}>
        <span className={styles.sideIcon}>{collapsed ? ICONS.expand : ICONS.collapse}</span>
        <span className={styles.sideLabel}>Свернуть</span>
      </button>
      </div>
    </nav>
  );
}

/**
 * Whether a bait element with ad-like classes was hidden by a content blocker; `signal` cancels
 * the check (the shell unmounted: its timer must not outlive the page).
 */
function detectAdBlocker(signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const bait = document.createElement('div');
    bait.className = 'adsbox ad-banner ad-placement textads banner-ads pub_300x250';
    bait.setAttribute('aria-hidden', 'true');
    bait.style.cssText = 'position:absolute;left:-10000px;top:-10000px;width:1px;height:1px;';
    bait.innerHTML = '&nbsp;';
    document.body.appendChild(bait);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', cancel);
      const style = window.getComputedStyle(bait);
      const blocked = !bait.isConnected || bait.offsetHeight === 0 || style.display === 'none' || style.visibility === 'hidden';
      bait.remove();
      resolve(blocked);
    }, 200);
    const cancel = () => {
      clearTimeout(timer);
      bait.remove();
      resolve(false);
    };
    signal.addEventListener('abort', cancel, { once: true });
  });
}

/** «У вас включен блокировщик рекламы», until dismissed (stored under adBlockHidden). */
function AdBlockNotice() {
  const [blocked, setBlocked] = useState(false);
  // Checked once the page is drawn: the first read of the storage and the bait's measurement
  // would otherwise hold up a report's first render.
  useEffect(() => {
    const checking = new AbortController();
    const cancelWait = whenIdle(() => {
      if (readStored(AD_BLOCK_KEY)) return;
      void detectAdBlocker(checking.signal).then((b) => !checking.signal.aborted && setBlocked(b));
    });
    return () => {
      cancelWait();
      checking.abort();
    };
  }, []);
  if (!blocked) return null;
  return (
    <div className={styles.adBlock}>
      <Notice
        tone="warning"
        data-testid="adblock-notice"
        onClose={() => {
          writeStored(AD_BLOCK_KEY, '1');
          setBlocked(false);
        }}
      >
        <b>{AD_BLOCK_TEXT}</b>. Он может мешать загрузке отчётов: добавьте этот сайт в исключения блокировщика.
      </Notice>
    </div>
  );
}

function Footer() {
  const { pathname } = useLocation();
  const links = footerLinks(pathname);
  return (
    <footer className={styles.footer}>
      <div className={styles.footerInner}>
        <div className={styles.footerStart}>
          <Logo small />
          <nav className={styles.footerLinks} aria-label="Информация">
            {links.map((l) => (
              <a key={l.label} href={l.href}>
                {l.label}
              </a>
            ))}
          </nav>
        </div>
        <div className={styles.footerMeta}>
          <span className={styles.timeNote}>{MOSCOW_TIME_NOTE}</span>
          <span className={styles.version}>Версия {RELEASE_VERSION}</span>
          <span className={styles.age} title="Возрастное ограничение">
            18+
          </span>
        </div>
      </div>
    </footer>
  );
}
