// @vitest-environment happy-dom
/** The error pages (spec 000 §2.9): each status's title and the link «Мои сайты» to /stat/projects. */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { render, type Rendered } from '../testing/render';
import { ErrorPage } from './ErrorPage';

let view: Rendered | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
});

async function renderError(status: number) {
  view = await render(
    <MemoryRouter>
      <ErrorPage status={status} />
    </MemoryRouter>,
  );
  return view;
}

describe('error pages (spec 000 §2.9)', () => {
  it.each([
    [400, 'Ошибка запроса'],
    [403, 'Доступ запрещен'],
    [404, 'Страница не найдена'],
    [500, 'Ошибка сервера'],
    [504, 'Шлюз не отвечает'],
    [507, 'Превышен лимит памяти'],
  ])('%i reads «%s» and links «Мои сайты» to /stat/projects', async (status, title) => {
    const v = await renderError(status);
    expect(v.container.querySelector('h1')?.textContent).toBe(title);
    // The tab's title is the page's (set on the document: the build's Preact keeps a <title> element in the body).
    expect(document.title).toBe(`${title} – Статистика`);
    expect(v.container.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe(`Ошибка ${status}`);
    const links = [...v.container.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([['Мои сайты', '/stat/projects']]);
  });

  it('507 asks to shorten the period', async () => {
    const v = await renderError(507);
    expect(v.text()).toContain('Сократите период');
  });

  it('a status without a page of its own shows the server error page', async () => {
    const v = await renderError(502);
    expect(v.container.querySelector('h1')?.textContent).toBe('Ошибка сервера');
  });
});
