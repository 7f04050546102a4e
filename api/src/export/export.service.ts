import { randomBytes } from 'node:crypto';
import { ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { moscowDate, moscowDayStart } from '@stat/schemas';
import { EXPORT_BASE_COLUMNS, EXPORT_LINK_DAYS, type ExportField, type ExportLink } from '@stat/schemas/export';
import type { ClickHouseClient } from '@stat/storage';
import type { Principal } from '../auth/principal.js';
import { can } from '../auth/principal.js';
import type { Db } from '../db/db.js';
import type { Kv } from '../kv/kv.js';
import { BOM, csvLine, datesOf } from '../engine/index.js';
import { CLICKHOUSE, CLOCK, DB, SESSION_KV, SETTINGS, type ApiSettings, type Clock } from '../tokens.js';
import type { ExportLinkDto } from './export.dto.js';

const DAY_MS = 86_400_000;

/** §6: the export page is for staff and for holders of can_read_dev_reports. */
export const EXPORT_FORBIDDEN = 'Выгрузка данных доступна сотрудникам и пользователям с доступом к отчётам для разработчиков';
/** An address that expired, or never was. */
const EXPORT_LINK_GONE = 'Ссылка на выгрузку недействительна или устарела: получите новую на странице «Выгрузка данных»';

/** What a data address stands for, kept under its token for 7 days. */
interface Export {
  projectId: number;
  dateStart: string;
  dateEnd: string;
  limit: number;
  fields: ExportField[];
}

/** Each field's SQL over `events` (the base columns first); names come only from here. */
const COLUMN_SQL: Record<(typeof EXPORT_BASE_COLUMNS)[number] | ExportField, string> = {
  date_time: "formatDateTime(ts, '%Y-%m-%d %H:%i:%S', 'Europe/Moscow')",
  event_type: 'event_type',
  url: 'url',
  event_class: 'event_class',
  event_name: 'event_name',
  session_id: 'toString(session_id)',
  session_number: 'session_number',
  event_number_in_session: 'event_number',
  version: "''",
  counter_type: '{counterType:UInt8}',
  publisher_uid: 'user_id',
  publisher_uid_scope: "''",
};

/**
 * The data export (spec 002 §2): a signed-by-secrecy address (a random token in the sessions'
 * store, so every api process knows it and it outlives a restart) that streams a project's raw
 * events as CSV, oldest first, for 7 days, to whoever holds it (a script, a spreadsheet).
 */
@Injectable()
export class ExportService {
  constructor(
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseClient,
    @Inject(DB) private readonly db: Db,
    @Inject(SESSION_KV) private readonly kv: Kv,
    @Inject(SETTINGS) private readonly settings: ApiSettings,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async link(user: Principal | null, projectId: number, body: ExportLinkDto): Promise<ExportLink> {
    if (!user || !(user.isStaff || can(user, 'can_read_dev_reports'))) throw new ForbiddenException(EXPORT_FORBIDDEN);
    const { dateStart, dateEnd } = datesOf(body, moscowDate(this.clock()));
    const token = randomBytes(24).toString('base64url');
    const asked: Export = { projectId, dateStart, dateEnd, limit: body.limit, fields: body.fields };
    await this.kv.set(`export:${token}`, JSON.stringify(asked), EXPORT_LINK_DAYS * DAY_MS);
    return {
      url: `${this.settings.publicUrl}/${this.settings.prefix}/api/v1.0/export/${token}.csv`,
      expires_at: new Date(this.clock() + EXPORT_LINK_DAYS * DAY_MS).toISOString(),
    };
  }

  /** The file of a data address: its name and its lines; 404 when the address is not (or no longer) valid. */
  async file(token: string): Promise<{ disposition: string; lines: AsyncGenerator<string> }> {
    const stored = /^[\w-]{32}$/.test(token) ? await this.kv.get(`export:${token}`) : null;
    if (stored === null) throw new NotFoundException(EXPORT_LINK_GONE);
    const asked = JSON.parse(stored) as Export;
    const [project] = await this.db.query<{ counter_settings: { counter_type?: number } }>('SELECT counter_settings FROM projects WHERE id = $1 AND deleted_at IS NULL', [
      asked.projectId,
    ]);
    if (!project) throw new NotFoundException(EXPORT_LINK_GONE);
    const columns = [...EXPORT_BASE_COLUMNS, ...asked.fields];
    const query = `SELECT ${columns.map((c) => `${COLUMN_SQL[c]} AS ${c}`).join(', ')}
      FROM events
      WHERE project_id = {project:UInt32} AND event_date BETWEEN {from:Date} AND {to:Date}
        AND ts >= fromUnixTimestamp64Milli({start:Int64}) AND ts < fromUnixTimestamp64Milli({end:Int64})
      ORDER BY ts, event_key
      LIMIT {limit:UInt32}`;
    const params = {
      project: asked.projectId,
      from: asked.dateStart,
      to: asked.dateEnd,
      start: moscowDayStart(asked.dateStart),
      end: moscowDayStart(asked.dateEnd) + DAY_MS,
      limit: asked.limit,
      counterType: project.counter_settings.counter_type ?? 0,
    };
    // The query is under way before the file begins: one that fails is the call's error, not a file of a header alone.
    const result = await this.clickhouse.query({ query, query_params: params, format: 'JSONCompactEachRow' });
    async function* lines(): AsyncGenerator<string> {
      yield BOM + csvLine(columns);
      for await (const rows of result.stream<unknown[]>()) {
        for (const row of rows) yield csvLine((row.json() as (string | number)[]).map((v) => (typeof v === 'number' ? String(v) : v)));
      }
    }
    const name = `export_${asked.projectId}_${asked.dateStart}_${asked.dateEnd}.csv`;
    return { disposition: `attachment; filename="${name}"`, lines: lines() };
  }
}
