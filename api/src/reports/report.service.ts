import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { REPORTS, type Metric } from '@stat/schemas';
import { bucketCount, bucketStarts, moscowDateTime } from './buckets.js';
import { ReportEngine, type MetricValues, type PeriodQuery } from './engine.js';
import type { ReportRequestDto } from './report-request.dto.js';

/** More points than this is no graph anyone can read; the client should pick a coarser group. */
export const MAX_BUCKETS = 10_000;
const DEFAULT_TABLE_LIMIT = 90;

export interface GraphPoint {
  ts: number;
  date: string;
  metrics: MetricValues;
}

export interface GraphResult {
  metrics: Metric[];
  data: { id: string; title: string; points: GraphPoint[] }[];
  totals: MetricValues;
}

export interface TableRow {
  id: string;
  parent_id: null;
  level: number;
  can_be_expanded: boolean;
  title: string;
  ts: number;
  metrics: MetricValues;
}

export interface TableResult {
  data: TableRow[];
  metrics: Metric[];
  all_metrics: Metric[];
  totals: MetricValues;
  sort: { name: string; order: 'asc' | 'desc' };
  meta: { total: number; offset: number };
}

@Injectable()
export class ReportService {
  constructor(@Inject(ReportEngine) private readonly engine: ReportEngine) {}

  async graph(projectId: number, reportName: string, body: ReportRequestDto): Promise<GraphResult> {
    const { points, totals } = await this.series(projectId, reportName, body);
    return {
      metrics: body.metrics,
      data: [{ id: 'total', title: 'Итого', points }],
      totals,
    };
  }

  async table(projectId: number, reportName: string, body: ReportRequestDto): Promise<TableResult> {
    const { points, totals } = await this.series(projectId, reportName, body);
    const sort = body.sort ?? { name: 'date', order: 'desc' };
    const column = sort.name === 'date' ? -1 : body.metrics.indexOf(sort.name);
    if (sort.name !== 'date' && column < 0) throw new BadRequestException(`sort.name ${sort.name} is not among metrics`);
    const key = (p: GraphPoint): number => (column < 0 ? p.ts : (p.metrics[column] ?? 0));
    const direction = sort.order === 'asc' ? 1 : -1;
    const sorted = [...points].sort((a, b) => (key(a) - key(b)) * direction || (a.ts - b.ts) * direction);
    const offset = body.offset ?? 0;
    const limit = body.limit ?? DEFAULT_TABLE_LIMIT;
    return {
      data: sorted.slice(offset, offset + limit).map((p) => ({
        id: p.date,
        parent_id: null,
        level: 0,
        can_be_expanded: false,
        title: p.date,
        ts: p.ts,
        metrics: p.metrics,
      })),
      metrics: body.metrics,
      all_metrics: [...body.metrics],
      totals,
      sort,
      meta: { total: points.length, offset },
    };
  }

  private async series(
    projectId: number,
    reportName: string,
    body: ReportRequestDto,
  ): Promise<{ points: GraphPoint[]; totals: MetricValues }> {
    if (!(REPORTS as readonly string[]).includes(reportName)) throw new NotFoundException(`report ${reportName} not found`);
    if (bucketCount(body.date_start, body.date_end, body.group) > MAX_BUCKETS) {
      throw new BadRequestException(`the period has more than ${MAX_BUCKETS} ${body.group} buckets: choose a coarser group`);
    }
    const query: PeriodQuery = { projectId, dateStart: body.date_start, dateEnd: body.date_end, metrics: body.metrics };
    const { buckets: filled, totals } = await this.engine.series(query, body.group);
    const zeros = body.metrics.map(() => 0);
    // Buckets that have not begun yet are not zeros, they are the future: leave them out.
    const now = Date.now() / 1000;
    const points = bucketStarts(body.date_start, body.date_end, body.group)
      .filter((ts) => ts <= now)
      .map((ts) => ({ ts, date: moscowDateTime(ts), metrics: filled.get(ts) ?? zeros }));
    return { points, totals };
  }
}
