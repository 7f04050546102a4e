import { Inject, Injectable, Logger } from '@nestjs/common';
import { FETCHER } from '../tokens.js';
import { decodePage, iconPng, iconUrl } from '../net/page.js';
import { PAGE_LIMITS, type PageFetcher } from '../net/safe-fetch.js';
import { ProjectsRepository } from './projects.repository.js';

const ICON_LIMITS = { timeoutMs: 3000, maxBytes: 100 * 1024, maxRedirects: 3 };

/**
 * A project's icon, fetched once after the project is created (by the same rules as any
 * outbound fetch) and stored as base64 PNG; a site without a PNG icon keeps the default icon.
 */
@Injectable()
export class Favicons {
  private readonly logger = new Logger('favicons');

  constructor(
    @Inject(FETCHER) private readonly fetcher: PageFetcher,
    @Inject(ProjectsRepository) private readonly projects: ProjectsRepository,
  ) {}

  /** Starts the fetch in the background; a failure leaves the default icon. */
  fetchLater(projectId: number, siteUrl: string): void {
    void this.fetch(projectId, siteUrl).catch((error: unknown) => {
      this.logger.debug(`project ${projectId}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private async fetch(projectId: number, siteUrl: string): Promise<void> {
    let icon: string | null = null;
    try {
      const page = await this.fetcher.get(siteUrl, PAGE_LIMITS);
      const iconAddress = iconUrl(page.status < 400 ? decodePage(page.body, page.contentType) : '', page.url);
      const image = await this.fetcher.get(iconAddress, ICON_LIMITS);
      icon = image.status === 200 ? (iconPng(image.body)?.toString('base64') ?? null) : null;
    } finally {
      await this.projects.setFavicon(projectId, icon);
    }
  }
}
