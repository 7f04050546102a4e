// @vitest-environment happy-dom
/**
 * The shell in happy-dom (spec 000 §1, §2.2, §9): the footer's links, age label and Moscow time
 * note; snackbars that clear themselves after 3 s and notifications that appear after 500 ms
 * (fake timers, so the clock is the test's).
 */
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { fire, render, type Rendered } from '../testing/render';
import { NotificationProvider, useNotifications } from './Notifications';
import { SessionProvider } from './session';
import { Shell } from './Shell';
import { SnackbarProvider, useSnackbar } from './Snackbar';

let view: Rendered | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  vi.useRealTimers();
});

async function renderShell(path: string) {
  view = await render(
    <SessionProvider initial={{ status: 'anonymous', user: null }}>
      <MemoryRouter initialEntries={[path]}>
        <Shell>
          <p>page</p>
        </Shell>
      </MemoryRouter>
    </SessionProvider>,
  );
  return view;
}

const footerLinks = (v: Rendered) => [...v.container.querySelectorAll('footer nav a')].map((a) => [a.textContent, a.getAttribute('href')]);

describe('footer (spec 000 §1, §2.2)', () => {
  it('has the five links, 18+, the Moscow time note and the logo to my sites', async () => {
    const v = await renderShell('/stat/projects');
    expect(footerLinks(v)).toEqual([
      ['Контакты', '/stat/docs/contacts'],
      ['Поддержка', '/stat/docs/support'],
      ['Документация', '/stat/docs'],
      ['Пользовательское соглашение', '/stat/docs/terms'],
      ['Конфиденциальность', '/stat/docs/privacy'],
    ]);
    const footer = v.container.querySelector('footer');
    expect(footer?.textContent).toContain('Отчёты созданы по московскому времени (GMT+3)');
    expect(footer?.textContent).toContain('18+');
    expect(footer?.querySelector('a[aria-label="Статистика — мои сайты"]')?.getAttribute('href')).toBe('/stat/projects');
  });

  it.each([
    ['/stat/projects/8000001/new/report/usability', '/stat/docs/usability'],
    ['/stat/projects/8000001/new/report/custom_vars', '/stat/docs/custom_vars'],
    ['/stat/projects/8000001/new/report/summary', '/stat/docs'],
  ])('on %s the documentation link is %s', async (path, docs) => {
    const v = await renderShell(path);
    expect(footerLinks(v).find(([label]) => label === 'Документация')?.[1]).toBe(docs);
  });
});

/** Advances the fake clock inside act(), so React renders what the timers changed. */
async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const click = (element: Element | null | undefined) => fire(element, new MouseEvent('click', { bubbles: true }));

function Copy() {
  const snackbar = useSnackbar();
  return (
    <button type="button" data-testid="copy" onClick={() => snackbar('Код скопирован')}>
      copy
    </button>
  );
}

describe('snackbar (spec 000 §9: auto-clear 3 s)', () => {
  /** The snackbar with a button that shows «Код скопирован», on the fake clock. */
  async function renderSnackbar(): Promise<{ region: () => string | null | undefined; copy: () => Promise<void> }> {
    vi.useFakeTimers();
    const v = await render(
      <SnackbarProvider>
        <Copy />
      </SnackbarProvider>,
    );
    view = v;
    return {
      region: () => v.container.querySelector('[role="status"]')?.textContent,
      copy: () => click(v.container.querySelector('[data-testid="copy"]')),
    };
  }

  it('shows the message and clears it after 3 s', async () => {
    const { region, copy } = await renderSnackbar();
    expect(region()).toBe('');
    await copy();
    expect(region()).toBe('Код скопирован');
    await advance(2999);
    expect(region()).toBe('Код скопирован');
    await advance(1);
    expect(region()).toBe('');
  });

  it('a new message starts its own 3 s', async () => {
    const { region, copy } = await renderSnackbar();
    await copy();
    await advance(2000);
    await copy();
    await advance(2000);
    expect(region()).toBe('Код скопирован');
    await advance(1000);
    expect(region()).toBe('');
  });
});

function Notify({ delayMs }: { readonly delayMs?: number }) {
  const { notify } = useNotifications();
  return (
    <button type="button" data-testid="notify" onClick={() => notify({ id: 'hello', title: 'Настройки', text: 'Проверьте код счётчика', ...(delayMs ? { delayMs } : {}) })}>
      notify
    </button>
  );
}

describe('notifications (spec 000 §2.2)', () => {
  const note = (v: Rendered) => v.container.querySelector('[data-testid="notification-hello"]');

  /** A button that asks for a notification (after delayMs, or the default), on the fake clock. */
  async function renderNotify(delayMs?: number): Promise<Rendered> {
    vi.useFakeTimers();
    const v = await render(
      <NotificationProvider>
        <Notify {...(delayMs ? { delayMs } : {})} />
      </NotificationProvider>,
    );
    view = v;
    await click(v.container.querySelector('[data-testid="notify"]'));
    return v;
  }

  it('appear after 500 ms and close with the cross', async () => {
    const v = await renderNotify();
    await advance(499);
    expect(note(v)).toBeNull();
    await advance(1);
    expect(note(v)?.textContent).toBe('НастройкиПроверьте код счётчика');
    await click(note(v)?.querySelector('button[aria-label="Закрыть уведомление"]'));
    expect(note(v)).toBeNull();
  });

  it('the counter settings one appears after 4000 ms (spec 000 §2.6)', async () => {
    const v = await renderNotify(4000);
    await advance(3999);
    expect(note(v)).toBeNull();
    await advance(1);
    expect(note(v)).not.toBeNull();
  });
});
