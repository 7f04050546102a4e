import { DEFAULT_COUNTER_SETTINGS } from '@stat/schemas/projects';

/** What the counter code carries besides the project (specification 000, §2.6). */
export interface CodeOptions {
  trackHashes: boolean;
  trackUserId: boolean;
  /** the block-analytics attribute name, or null when off */
  blockAttribute: string | null;
  widget: boolean;
}

export interface CodeUrls {
  publicUrl: string;
  collectorPublicUrl: string;
  prefix: string;
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The snippet a site owner pastes: the counter script with its options as data- attributes
 * (counter-snippet/src/counter.ts reads them) and, in widget mode, the badge image linking to
 * the site's dashboard.
 */
export function counterCode(urls: CodeUrls, projectId: number, options: CodeOptions): string {
  const attributes = [
    'async',
    // Block analytics is in the full build only (counter-snippet/README.md, "Builds").
    `src="${attribute(`${urls.publicUrl}/counter/${options.blockAttribute ? 'counter-full' : 'counter'}.js`)}"`,
    `data-project="${projectId}"`,
    `data-collector="${attribute(urls.collectorPublicUrl)}"`,
  ];
  if (options.trackHashes) attributes.push('data-track-hashes="true"');
  if (options.trackUserId) attributes.push('data-user-id="true"');
  if (options.blockAttribute) attributes.push(`data-attribute="${attribute(options.blockAttribute)}"`);
  let code = `<script ${attributes.join(' ')}></script>`;
  if (options.widget) {
    const image = `${urls.publicUrl}/${urls.prefix}/api/v1.0/project/${projectId}/widget.svg`;
    code +=
      `\n<a href="${attribute(`${urls.publicUrl}/stat/projects/${projectId}/dashboard`)}" target="_blank" rel="noopener">` +
      `<img src="${attribute(image)}" width="88" height="31" alt="Статистика"></a>`;
  }
  return code;
}

/** The widget: an 88×31 SVG badge in the site's colour with today's page views. */
export function widgetSvg(color: string, views: number): string {
  const fill = /^#[0-9a-fA-F]{6}$/.test(color) ? color : DEFAULT_COUNTER_SETTINGS.color;
  const text = views.toLocaleString('ru-RU').replace(/\u00a0/g, ' ');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="88" height="31" viewBox="0 0 88 31" role="img" aria-label="Просмотры сегодня: ${text}">` +
    `<rect width="88" height="31" rx="3" fill="${fill}"/>` +
    `<text x="44" y="14" fill="#fff" font-family="Arial,sans-serif" font-size="11" font-weight="bold" text-anchor="middle">${text}</text>` +
    `<text x="44" y="26" fill="#fff" font-family="Arial,sans-serif" font-size="8" text-anchor="middle">просмотров сегодня</text>` +
    `</svg>`
  );
}
