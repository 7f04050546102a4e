import { describe, expect, it } from 'vitest';
import { createStaticHandler } from 'react-router-dom';
import { routes } from './routes';

const handler = createStaticHandler(routes);

/** Where a path redirects to, or null when it renders. */
async function redirectOf(path: string): Promise<string | null> {
  const result = await handler.query(new Request(`http://localhost${path}`));
  if (result instanceof Response) return result.headers.get('Location');
  return null;
}

/** The route ids matched by a path that renders, leaf last. */
async function matched(path: string): Promise<{ status: number; paths: (string | undefined)[] }> {
  const result = await handler.query(new Request(`http://localhost${path}`));
  if (result instanceof Response) throw new Error(`${path} redirected to ${result.headers.get('Location')}`);
  return { status: result.statusCode, paths: result.matches.map((m) => m.route.path) };
}

describe('redirects of spec 000 §2.1', () => {
  it.each([
    ['/', '/stat/projects'],
    ['/stat', '/stat/projects'],
    ['/stat/', '/stat/projects'],
    ['/create', '/stat/create'],
    ['/login', '/stat/projects?login'],
    ['/stat/login', '/stat/projects'],
    ['/projects/7596044/dashboard?x=1', '/stat/projects/7596044/dashboard?x=1'],
    ['/projects/7596044/new/report/summary?dateStart=today&dateEnd=today', '/stat/projects/7596044/new/report/summary?dateStart=today&dateEnd=today'],
    ['/stat/projects/7596044', '/stat/projects/7596044/dashboard'],
    ['/stat/projects/7596044?groupBy=day', '/stat/projects/7596044/dashboard?groupBy=day'],
    ['/stat/projects/7596044/settings', '/stat/projects/7596044/settings/counter'],
  ])('%s → %s', async (from, to) => {
    expect(await redirectOf(from)).toBe(to);
  });
});

describe('screens', () => {
  it('renders the summary report route', async () => {
    const { status, paths } = await matched('/stat/projects/7596044/new/report/summary');
    expect(status).toBe(200);
    expect(paths.at(-1)).toBe('new/report/:reportName');
  });

  it.each(['/stat/projects', '/stat/projects/deleted', '/stat/create', '/stat/projects/1/dashboard', '/stat/projects/1/settings/access', '/stat/projects/1/conversions/5', '/stat/projects/1/new/media/top/12'])(
    'has a route for %s',
    async (path) => {
      const { paths } = await matched(path);
      expect(paths.at(-1)).not.toBe('*');
    },
  );

  it.each(['/stat/nothing', '/stat/projects/1/nothing', '/stat/projects/1/new/report', '/anything/else'])('sends %s to the 404 route', async (path) => {
    const { paths } = await matched(path);
    expect(paths.at(-1)).toBe('*');
  });
});
