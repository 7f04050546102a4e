import { BadRequestException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { FUNNEL_METRIC_TITLES, FUNNEL_METRICS, FUNNEL_TEXTS, FUNNELS_PAGE, moscowDate, type DimensionFilterRule, type Funnel, type FunnelList, type FunnelReport } from '@stat/schemas';
import { FORBIDDEN } from '../auth/access.guard.js';
import type { Principal } from '../auth/principal.js';
import type { ProjectRights } from '../auth/project-access.js';
import type { Db, Sql } from '../db/db.js';
import { goalsWritable } from '../goals/goals.service.js';
import { assertSameAsPath } from '../http/path-ids.js';
import { BOM, csvDisposition, csvLine, ReportEngine, datesOf, periodSample, Sampling } from '../engine/index.js';
import { CLOCK, DB, type Clock } from '../tokens.js';
import type { FunnelDto, FunnelListQueryDto, FunnelReportDto, UpdateFunnelDto } from './funnel.dto.js';
import { compileFunnel, funnelFigures, scaledCounts } from './funnel-sql.js';
import { FunnelsRepository } from './funnels.repository.js';

@Injectable()
export class FunnelsService {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(FunnelsRepository) private readonly funnels: FunnelsRepository,
    @Inject(ReportEngine) private readonly engine: ReportEngine,
    @Inject(Sampling) private readonly sampling: Sampling,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(project: ProjectRights, q: FunnelListQueryDto): Promise<FunnelList> {
    const { funnels, total } = await this.funnels.list(project.id, q.search?.trim() ?? '', q.limit ?? FUNNELS_PAGE, q.offset ?? 0);
    return { funnels, totals: total };
  }

  async get(project: ProjectRights, id: number): Promise<Funnel> {
    const found = await this.funnels.get(project.id, id);
    if (!found) throw new NotFoundException(FUNNEL_TEXTS.notFound);
    return found.funnel;
  }

  async create(project: ProjectRights, user: Principal, dto: FunnelDto): Promise<Funnel> {
    if (!goalsWritable(project)) throw new ForbiddenException(FORBIDDEN);
    const id = await this.db.transaction(async (tx) => {
      const ids = await this.checkedGoals(project, user, dto, tx);
      const created = await this.funnels.insert(project.id, user.id, dto.title, tx);
      await this.funnels.setSteps(created, dto.steps, tx);
      await this.funnels.makeGoalsPublic(ids, tx);
      return created;
    });
    return this.get(project, id);
  }

  async update(project: ProjectRights, user: Principal, id: number, dto: UpdateFunnelDto): Promise<Funnel> {
    assertSameAsPath('id', dto.id, id);
    await this.assertChangeable(project, user, id);
    await this.db.transaction(async (tx) => {
      const ids = await this.checkedGoals(project, user, dto, tx);
      await this.funnels.rename(id, dto.title, tx);
      await this.funnels.setSteps(id, dto.steps, tx);
      await this.funnels.makeGoalsPublic(ids, tx);
    });
    return this.get(project, id);
  }

  async remove(project: ProjectRights, user: Principal, id: number): Promise<Record<string, never>> {
    await this.assertChangeable(project, user, id);
    if (!(await this.funnels.delete(project.id, id))) throw new NotFoundException(FUNNEL_TEXTS.notFound);
    return {};
  }

  /** The funnel's figures over the period (§7): computed in ClickHouse, shaped here. */
  async report(project: ProjectRights, body: FunnelReportDto): Promise<FunnelReport> {
    const found = await this.funnels.get(project.id, body.funnel_id);
    if (!found) throw new NotFoundException(FUNNEL_TEXTS.notFound);
    const today = moscowDate(this.clock());
    const { dateStart, dateEnd } = datesOf(body, today);
    const steps = await this.funnels.stepGoals(body.funnel_id);
    // As the reports read it: today and a small period whole whatever was asked.
    const sample = await this.sampling.sampleOf(project.id, { dateStart, dateEnd }, periodSample(body.sample, { dateStart, dateEnd }, today));
    const metrics = body.metrics ?? [...FUNNEL_METRICS];
    const filters: DimensionFilterRule[] = (body.dimension_filters ?? []).map((r) => ({ key: r.key, op: r.op, value: r.value, ...(r.extra?.eventClass === undefined ? {} : { extra: { eventClass: r.extra.eventClass } }) }));
    const sql = compileFunnel({ projectId: project.id, steps: steps.map((s) => s.bodies), dateStart, dateEnd, filters, sample });
    const [row] = await this.engine.rows(sql, 'funnel');
    const counts = scaledCounts((row ?? { prev: [], total: [], went: [] }) as { prev: unknown[]; total: unknown[]; went: unknown[] }, sample);
    const { table, graph } = funnelFigures(counts, steps.map((s) => s.step_title), metrics);
    return { metrics, table, graph, sample };
  }

  /**
   * The report as a CSV file (§2 download menu; 001 §9: semicolons, comma decimals, a BOM): a
   * line per step, the metrics with visitors from the previous step, then with the others.
   */
  async csv(project: ProjectRights, body: FunnelReportDto): Promise<{ disposition: string; text: string }> {
    const report = await this.report(project, body);
    const found = await this.funnels.get(project.id, body.funnel_id);
    const { dateStart, dateEnd } = datesOf(body, moscowDate(this.clock()));
    const titles = report.metrics.map((m) => FUNNEL_METRIC_TITLES[m]);
    const lines = [
      csvLine(['Шаг', ...titles, ...titles.map((t) => `${t} (${FUNNEL_TEXTS.notPrevStep.toLowerCase()})`)]),
      ...report.table.map((row) => csvLine([`${row.stepNumber}. ${row.stepTitle}`, ...row.metrics, ...row.metricsWithNotPrevStep])),
    ];
    return { disposition: csvDisposition('funnel', `Воронка ${found?.funnel.title ?? ''}`.trim(), dateStart, dateEnd), text: BOM + lines.join('') };
  }

  /** The goals of the steps: each a live goal of the project that the caller sees; their ids. */
  private async checkedGoals(project: ProjectRights, user: Principal, dto: FunnelDto, tx: Sql): Promise<number[]> {
    const ids = [...new Set(dto.steps.flatMap((s) => s.goals))];
    const rows = await this.funnels.goals(project.id, ids, tx);
    const usable = new Set(rows.filter((g) => !g.is_deleted && (g.access === 'common' || Number(g.owner_id) === user.id)).map((g) => Number(g.id)));
    const missing = ids.find((id) => !usable.has(id));
    if (missing !== undefined) throw new BadRequestException(`${FUNNEL_TEXTS.goalUnknown}: ${missing}`);
    return ids;
  }

  /** A funnel is changed and deleted by its author or by those who may edit the project; on the demo project by administrators. */
  private async assertChangeable(project: ProjectRights, user: Principal, id: number): Promise<void> {
    if (!goalsWritable(project)) throw new ForbiddenException(FORBIDDEN);
    const found = await this.funnels.get(project.id, id);
    if (!found) throw new NotFoundException(FUNNEL_TEXTS.notFound);
    if (found.authorId !== user.id && !project.edit) throw new ForbiddenException(FORBIDDEN);
  }
}
