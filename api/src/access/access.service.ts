import { BadRequestException, HttpException, HttpStatus, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AccessRequests, AccessUsers, OwnershipCheck, UserExists } from '@stat/schemas/access';
import type { Db, Sql } from '../db/db.js';
import type { Principal } from '../auth/principal.js';
import type { ProjectRights } from '../auth/project-access.js';
import { RateLimiter, TOO_MANY_REQUESTS } from '../auth/rate-limit.js';
import { assertSameAsPath } from '../http/path-ids.js';
import { decodePage } from '../net/page.js';
import { FetchRefused, PAGE_LIMITS, type PageFetcher } from '../net/safe-fetch.js';
import { DB, FETCHER } from '../tokens.js';
import { normalizeEmail } from '../users/users.repository.js';
import type { AccessDecisionDto, AccessUserDto } from './access.dto.js';

const EMAIL_NOT_FOUND = 'Такой email не найден в системе, пользователю необходимо пройти регистрацию';
const ALREADY_ADDED = 'Пользователь уже добавлен';
const OWN_ACCESS = 'Нельзя изменить собственный доступ';
const OWNER_ACCESS = 'Нельзя изменить доступ владельца счётчика';
export const RATE_LIMIT_EXCEEDED = 'Rate limit exceeded';
const REQUEST_EXISTS = 'Запрос уже отправлен';
const HAS_ACCESS = 'У вас уже есть доступ к счётчику';
const REQUEST_NOT_FOUND = 'Запрос не найден';
const UNREACHABLE = 'Адрес недоступен';
/** Users one user may add to projects in 24 hours (specification 000, §9). */
const GRANTS_PER_DAY = 20;

@Injectable()
export class AccessService {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(FETCHER) private readonly fetcher: PageFetcher,
  ) {}

  async users(projectId: number, caller: Principal, sql: Sql = this.db): Promise<AccessUsers> {
    const rows = await sql.query<{ user_id: number; email: string; access_level: number; is_owner: boolean }>(
      `SELECT u.id AS user_id, u.email, 0 AS access_level, true AS is_owner FROM projects p JOIN users u ON u.id = p.owner_id WHERE p.id = $1
       UNION ALL
       SELECT u.id, u.email, pa.access_level, false FROM project_access pa JOIN users u ON u.id = pa.user_id WHERE pa.project_id = $1
       ORDER BY is_owner DESC, email`,
      [projectId],
    );
    return {
      users: rows.map((r) => ({
        email: r.email,
        access_level: r.access_level,
        can_edit_project: r.access_level === 0,
        is_owner: r.is_owner,
        is_current_user: r.user_id === caller.id,
        user: { email: r.email },
      })),
    };
  }

  /**
   * Replaces the project's shared users with `wanted`, in one transaction. The owner's and the
   * caller's own entries cannot change; every e-mail must have an account; at most 20 users
   * added by one user in 24 hours.
   */
  async replace(rights: ProjectRights, caller: Principal, wanted: AccessUserDto[]): Promise<AccessUsers> {
    const emails = wanted.map((u) => normalizeEmail(u.email));
    if (new Set(emails).size !== emails.length) throw new BadRequestException(ALREADY_ADDED);
    return this.db.transaction(async (tx) => {
      // One change of a project's access at a time: the limit below counts what is committed.
      const [project] = await tx.query<{ owner_id: number | null }>('SELECT owner_id FROM projects WHERE id = $1 FOR UPDATE', [rights.id]);
      if (!project) throw new NotFoundException('Счётчик не найден');
      const accounts = await tx.query<{ id: number; email: string }>('SELECT id, email FROM users WHERE email = ANY($1::text[])', [emails]);
      const idOf = new Map(accounts.map((a) => [a.email, a.id]));
      const missing = emails.filter((e) => !idOf.has(e));
      if (missing.length > 0) throw new BadRequestException(EMAIL_NOT_FOUND);
      const current = new Map(
        (await tx.query<{ user_id: number; access_level: number }>('SELECT user_id, access_level FROM project_access WHERE project_id = $1', [rights.id])).map(
          (r) => [r.user_id, r.access_level],
        ),
      );
      const next = new Map<number, number>();
      for (const [index, user] of wanted.entries()) {
        const id = idOf.get(emails[index] as string) as number;
        if (id === project.owner_id) {
          if (user.access_level !== 0) throw new BadRequestException(id === caller.id ? OWN_ACCESS : OWNER_ACCESS);
          continue;
        }
        next.set(id, user.access_level);
      }
      // The caller's own entry, when they have one, must come back unchanged.
      if (current.has(caller.id) && next.get(caller.id) !== current.get(caller.id)) throw new BadRequestException(OWN_ACCESS);
      if (!current.has(caller.id) && next.has(caller.id)) throw new BadRequestException(OWN_ACCESS);
      const added = [...next.keys()].filter((id) => !current.has(id));
      if (added.length > 0) await this.checkDailyLimit(tx, caller.id, added.length);
      for (const id of current.keys()) {
        if (!next.has(id)) await tx.query('DELETE FROM project_access WHERE project_id = $1 AND user_id = $2', [rights.id, id]);
      }
      for (const [id, level] of next) {
        if (current.get(id) === level) continue;
        await tx.query(
          `INSERT INTO project_access (project_id, user_id, access_level, granted_by) VALUES ($1, $2, $3, $4)
           ON CONFLICT (project_id, user_id) DO UPDATE SET access_level = excluded.access_level, granted_by = excluded.granted_by, granted_at = now()`,
          [rights.id, id, level, caller.id],
        );
      }
      for (const id of added) {
        await tx.query('INSERT INTO access_grants (granted_by, project_id, user_id) VALUES ($1, $2, $3)', [caller.id, rights.id, id]);
        await tx.query(
          `UPDATE access_requests SET status = 'accepted', decided_at = now(), decided_by = $3
           WHERE project_id = $1 AND user_id = $2 AND status = 'pending'`,
          [rights.id, id, caller.id],
        );
      }
      return this.users(rights.id, caller, tx);
    });
  }

  async exists(caller: Principal, email: string): Promise<UserExists> {
    await this.limiter.consume(`exists:${caller.id}`, 60, 60_000, TOO_MANY_REQUESTS);
    const [row] = await this.db.query('SELECT 1 FROM users WHERE email = $1', [normalizeEmail(email)]);
    return { exists: row !== undefined };
  }

  async request(rights: ProjectRights, caller: Principal): Promise<void> {
    if (rights.view && !rights.deleted && (await this.hasExplicitAccess(rights.id, caller.id))) throw new BadRequestException(HAS_ACCESS);
    const [row] = await this.db.query<{ id: number }>(
      `INSERT INTO access_requests (project_id, user_id) VALUES ($1, $2)
       ON CONFLICT (project_id, user_id) WHERE status = 'pending' DO NOTHING RETURNING id`,
      [rights.id, caller.id],
    );
    if (!row) throw new BadRequestException(REQUEST_EXISTS);
  }

  /** Pending requests on the projects the caller may edit (one project, or all). */
  async requests(caller: Principal, projectId: number | null): Promise<AccessRequests> {
    const rows = await this.db.query<{ id: number; project_id: number; email: string; created_at: Date; title: string }>(
      `SELECT r.id, r.project_id, u.email, r.created_at, p.title
       FROM access_requests r
       JOIN projects p ON p.id = r.project_id
       JOIN users u ON u.id = r.user_id
       LEFT JOIN project_access pa ON pa.project_id = p.id AND pa.user_id = $1
       WHERE r.status = 'pending' AND p.deleted_at IS NULL
         AND ($2::bigint IS NULL OR r.project_id = $2)
         AND (p.owner_id = $1 OR pa.access_level = 0 OR $3::boolean)
       ORDER BY r.created_at, r.id`,
      [caller.id, projectId, projectId !== null],
    );
    return {
      data: rows.map((r) => ({
        access_request_id: r.id,
        accessRequestId: r.id,
        project_id: r.project_id,
        project_title: r.title,
        email: r.email,
        created: r.created_at.toISOString(),
      })),
      total: rows.length,
    };
  }

  async decide(rights: ProjectRights, caller: Principal, requestId: number, body: AccessDecisionDto): Promise<Record<string, never>> {
    assertSameAsPath('project_id', body.project_id, rights.id);
    assertSameAsPath('access_request_id', body.access_request_id, requestId);
    assertSameAsPath('accessRequestId', body.accessRequestId, requestId);
    await this.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [rights.id]);
      const [request] = await tx.query<{ user_id: number }>(
        "SELECT user_id FROM access_requests WHERE id = $1 AND project_id = $2 AND status = 'pending' FOR UPDATE",
        [requestId, rights.id],
      );
      if (!request) throw new NotFoundException(REQUEST_NOT_FOUND);
      if (request.user_id === caller.id) throw new BadRequestException(OWN_ACCESS);
      if (body.action_request === 'decline') {
        await tx.query("UPDATE access_requests SET status = 'declined', decided_at = now(), decided_by = $2 WHERE id = $1", [requestId, caller.id]);
        return;
      }
      const level = body.access_level ?? (body.can_edit_project ? 0 : 1);
      const [existing] = await tx.query('SELECT 1 FROM project_access WHERE project_id = $1 AND user_id = $2', [rights.id, request.user_id]);
      if (!existing) {
        await this.checkDailyLimit(tx, caller.id, 1);
        await tx.query('INSERT INTO access_grants (granted_by, project_id, user_id) VALUES ($1, $2, $3)', [caller.id, rights.id, request.user_id]);
      }
      await tx.query(
        `INSERT INTO project_access (project_id, user_id, access_level, granted_by) VALUES ($1, $2, $3, $4)
         ON CONFLICT (project_id, user_id) DO UPDATE SET access_level = excluded.access_level, granted_by = excluded.granted_by, granted_at = now()`,
        [rights.id, request.user_id, level, caller.id],
      );
      await tx.query("UPDATE access_requests SET status = 'accepted', decided_at = now(), decided_by = $2 WHERE id = $1", [requestId, caller.id]);
    });
    return {};
  }

  /**
   * Proves the caller controls the site: the first call gives a meta tag to put on the page;
   * a later call that finds it there grants the caller edit access.
   */
  async verifyOwnership(rights: ProjectRights, caller: Principal): Promise<OwnershipCheck> {
    await this.limiter.consume(`verify:${caller.id}`, 10, 60_000, TOO_MANY_REQUESTS);
    const [existing] = await this.db.query<{ token: string }>('SELECT token FROM ownership_tokens WHERE project_id = $1 AND user_id = $2', [
      rights.id,
      caller.id,
    ]);
    if (!existing) {
      const token = randomBytes(16).toString('hex');
      await this.db.query('INSERT INTO ownership_tokens (project_id, user_id, token) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [rights.id, caller.id, token]);
      return { verified: false, meta_tag: metaTag(token) };
    }
    const [project] = await this.db.query<{ url: string; owner_id: number | null }>('SELECT url, owner_id FROM projects WHERE id = $1', [rights.id]);
    let html = '';
    try {
      const page = await this.fetcher.get(project?.url ?? '', PAGE_LIMITS);
      html = decodePage(page.body, page.contentType);
    } catch (error) {
      if (error instanceof FetchRefused) throw new BadRequestException(UNREACHABLE);
      throw error;
    }
    if (!hasMetaTag(html, existing.token)) return { verified: false, meta_tag: metaTag(existing.token) };
    await this.db.transaction(async (tx) => {
      if (project?.owner_id !== caller.id) {
        await tx.query(
          `INSERT INTO project_access (project_id, user_id, access_level, granted_by) VALUES ($1, $2, 0, NULL)
           ON CONFLICT (project_id, user_id) DO UPDATE SET access_level = 0, granted_at = now()`,
          [rights.id, caller.id],
        );
      }
      await tx.query("UPDATE access_requests SET status = 'accepted', decided_at = now() WHERE project_id = $1 AND user_id = $2 AND status = 'pending'", [
        rights.id,
        caller.id,
      ]);
      await tx.query('DELETE FROM ownership_tokens WHERE project_id = $1 AND user_id = $2', [rights.id, caller.id]);
    });
    return { verified: true, meta_tag: metaTag(existing.token) };
  }

  private async hasExplicitAccess(projectId: number, userId: number): Promise<boolean> {
    const [row] = await this.db.query(
      `SELECT 1 FROM projects p LEFT JOIN project_access pa ON pa.project_id = p.id AND pa.user_id = $2
       WHERE p.id = $1 AND (p.owner_id = $2 OR pa.user_id IS NOT NULL)`,
      [projectId, userId],
    );
    return row !== undefined;
  }

  private async checkDailyLimit(tx: Sql, userId: number, adding: number): Promise<void> {
    const [row] = await tx.query<{ n: number }>(
      "SELECT count(*) AS n FROM access_grants WHERE granted_by = $1 AND granted_at > now() - interval '24 hours'",
      [userId],
    );
    if ((row?.n ?? 0) + adding > GRANTS_PER_DAY) throw new HttpException(RATE_LIMIT_EXCEEDED, HttpStatus.TOO_MANY_REQUESTS);
  }
}

function metaTag(token: string): string {
  return `<meta name="stat-verification" content="${token}">`;
}

function hasMetaTag(html: string, token: string): boolean {
  return [...html.matchAll(/<meta\b[^>]*>/gi)].some((m) => /name=["']?stat-verification["'\s>]/i.test(m[0]) && m[0].includes(`content="${token}"`));
}
