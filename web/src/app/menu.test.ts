import { describe, expect, it } from 'vitest';
import { collapseKey, isNonProductionHost, isRestrictedUser, isStaffLike, productMenu, resolveScope, SCOPE_KEY, switchProjectPath, visibleMenu, type MenuContext } from './menu';

const hosts = { advertiser: 'https://ads.example', seller: 'https://seller.ads.example' };

describe('left menu (spec 000 §2.2)', () => {
  const ids = (scope: string | null, host: string) => productMenu(scope, host, hosts).map((i) => i.id);

  it('has every section on a development host', () => {
    expect(ids(null, 'localhost')).toEqual(['campaigns', 'reports', 'audiences', 'creative', 'statistics', 'cabinet', 'profile']);
  });
  it('hides audiences on production hosts', () => {
    expect(ids(null, 'stat.example.ru')).toEqual(['campaigns', 'reports', 'creative', 'statistics', 'cabinet', 'profile']);
  });
  it('hides audiences and the creative studio for the seller scope, and links the seller cabinet', () => {
    expect(ids('seller', 'localhost')).toEqual(['campaigns', 'reports', 'statistics', 'cabinet', 'profile']);
    expect(productMenu('seller', 'localhost', hosts)[0]?.href).toBe('https://seller.ads.example/campaigns');
    expect(productMenu(null, 'localhost', hosts)[0]?.href).toBe('https://ads.example/campaigns');
  });
  it('without a cabinet shows only statistics and profile', () => {
    expect(productMenu(null, 'localhost', { advertiser: '', seller: '' }).map((i) => i.id)).toEqual(['statistics', 'profile']);
  });
  it('knows development hosts', () => {
    expect(isNonProductionHost('127.0.0.1')).toBe(true);
    expect(isNonProductionHost('stat.dev.example.ru')).toBe(true);
    expect(isNonProductionHost('stage-stat.example.ru')).toBe(true);
    expect(isNonProductionHost('stat.example.ru')).toBe(false);
  });
  it('stores the scope parameter under uScope and reads it back', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(resolveScope('?scope=seller', storage)).toBe('seller');
    expect(store.get(SCOPE_KEY)).toBe('seller');
    expect(resolveScope('', storage)).toBe('seller');
    expect(resolveScope('', null)).toBeNull();
  });
  it('remembers the collapse state per user', () => {
    expect(collapseKey(12)).not.toBe(collapseKey(13));
  });
});

describe('report menu visibility (spec 000 §2.2, §6)', () => {
  const base: MenuContext = { availableReports: ['summary'], restricted: false, staff: false, canEdit: true, ratingAllowed: false };
  const items = (ctx: MenuContext) => visibleMenu(ctx).flatMap((g) => g.items.map((i) => i.to));

  it('shows reports in available_reports only', () => {
    expect(items(base)).toContain('new/report/summary');
    expect(items(base)).not.toContain('new/report/usability');
    expect(items({ ...base, availableReports: ['summary', 'usability'] })).toContain('new/report/usability');
  });
  it('needs media_totals for media reports', () => {
    expect(items(base)).not.toContain('new/media/materials_summary');
    expect(items({ ...base, availableReports: ['summary', 'media_totals'] })).toContain('new/media/materials_summary');
    expect(items(base)).not.toContain('new/media/authors_summary');
    expect(items({ ...base, availableReports: ['summary', 'media_totals'] })).toContain('new/media/authors_summary');
  });
  it('shows the rating report without an available_reports entry when its status allows', () => {
    expect(items(base)).not.toContain('new/report/rating');
    expect(items({ ...base, ratingAllowed: true })).toContain('new/report/rating');
  });
  it('shows staff-only items to staff and can_read_dev_reports holders only', () => {
    expect(items(base)).not.toContain('export');
    expect(items({ ...base, staff: true })).toContain('export');
    expect(isStaffLike({ is_top100_staff: false, role_permissions: ['can_read_dev_reports'] })).toBe(true);
    expect(isStaffLike({ is_top100_staff: true, role_permissions: [] })).toBe(true);
    expect(isStaffLike({ is_top100_staff: false, role_permissions: ['create_projects'] })).toBe(false);
    expect(isStaffLike(null)).toBe(false);
  });
  it('gives users of restricted domains the usability report and the constructor only', () => {
    expect(items({ ...base, restricted: true, availableReports: ['summary', 'usability'] })).toEqual(['new/report/usability', 'constructor']);
    expect(isRestrictedUser('a@corp.example', ['corp.example'])).toBe(true);
    expect(isRestrictedUser('a@mail.corp.example', ['corp.example'])).toBe(true);
    expect(isRestrictedUser('a@example.com', ['corp.example'])).toBe(false);
    expect(isRestrictedUser(undefined, ['corp.example'])).toBe(false);
  });
  it('shows the settings item to editors only', () => {
    expect(items(base)).toContain('settings/counter');
    expect(items({ ...base, canEdit: false })).not.toContain('settings/counter');
  });
});

describe('switching projects keeps the section (spec 000 §2.4)', () => {
  it.each([
    ['/stat/projects/1/new/report/summary', '?dateStart=today', '/stat/projects/2/new/report/summary?dateStart=today'],
    ['/stat/projects/1/settings/access', '', '/stat/projects/2/settings/access'],
    ['/stat/projects/1', '', '/stat/projects/2/dashboard'],
    ['/stat/projects/1/', '', '/stat/projects/2/dashboard'],
    ['/stat/projects/1/new/media/material/55', '', '/stat/projects/2/new/media/materials_summary'],
    ['/stat/projects/1/new/media/author/7', '', '/stat/projects/2/new/media/authors_summary'],
    ['/stat/projects/1/new/media/materials_summary', '', '/stat/projects/2/new/media/materials_summary'],
    ['/stat/projects/1/conversions/9', '', '/stat/projects/2/conversions'],
    ['/stat/projects', '', '/stat/projects/2/dashboard'],
  ])('%s%s → %s', (path, search, target) => {
    expect(switchProjectPath(path, search, 2)).toBe(target);
  });
});
