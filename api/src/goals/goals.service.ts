import { BadRequestException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  AUTOGOAL_TEMPLATES,
  AUTOGOALS_PAGE,
  GOAL_RATE_LIMIT_MESSAGE,
  GOAL_TEXTS,
  GOALS_LIST_PAGE,
  type AutogoalList,
  type DimensionFilterRule,
  type Goal,
  type GoalBody,
  type GoalCountsReport,
  type GoalList,
  moscowDate,
} from '@stat/schemas';
import { FORBIDDEN } from '../auth/access.guard.js';
import type { Principal } from '../auth/principal.js';
import { DEMO_PROJECT_ID, ProjectAccess, type ProjectRights } from '../auth/project-access.js';
import type { Kv } from '../kv/kv.js';
import { ReportEngine, datesOf } from '../engine/index.js';
import { CLOCK, LIMIT_KV, SETTINGS, type ApiSettings, type Clock } from '../tokens.js';
import type { AutogoalListQueryDto, CreateGoalDto, GoalBodyDto, GoalCountsDto, GoalListQueryDto, GoalsByIdsDto, UpdateGoalDto } from './goal.dto.js';
import { compileGoalCounts, goalCountsOf } from './goal-sql.js';
import { GoalsRepository, type GoalFields, type GoalRow } from './goals.repository.js';

const NOTHING_TO_CHANGE = 'Nothing to change: send title, description, access, is_protected, is_td_sending or body';
const RATE_WINDOW_MS = 60_000;

/**
 * The flags as §4 makes them: sending to the ad service forces public and protected on. (The
 * form clears sending when public or protected is switched off; a request that asks for sending
 * asks for the other two.)
 */
function forcedFlags<T extends Pick<GoalFields, 'access' | 'is_protected' | 'is_td_sending'>>(fields: T): T {
  return fields.is_td_sending ? { ...fields, access: 'common', is_protected: true } : fields;
}

/**
 * Whether `user` may delete a goal (§5 "goal delete only for the owner"): its creator; on the
 * demo project, which is read-only except for administrators (§5), an administrator, whoever
 * made it (its seeded goals have no creator); and a goal whose creator's account is gone, those
 * who may edit the project, so that no goal is left that nobody can delete.
 */
function goalDeletable(row: Pick<GoalRow, 'owner_id'>, user: Principal | null, project: ProjectRights): boolean {
  if (user === null || !goalsWritable(project)) return false;
  if (row.owner_id !== null && Number(row.owner_id) === user.id) return true;
  return project.edit && (project.id === DEMO_PROJECT_ID || row.owner_id === null);
}

/** Whether a caller may change a project's goals at all: on the demo project only an administrator (§5). */
export function goalsWritable(project: ProjectRights): boolean {
  return project.id !== DEMO_PROJECT_ID || project.edit;
}

@Injectable()
export class GoalsService {
  constructor(
    @Inject(GoalsRepository) private readonly goals: GoalsRepository,
    @Inject(ProjectAccess) private readonly access: ProjectAccess,
    @Inject(LIMIT_KV) private readonly limits: Kv,
    @Inject(SETTINGS) private readonly settings: ApiSettings,
    @Inject(ReportEngine) private readonly engine: ReportEngine,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(user: Principal | null, q: GoalListQueryDto): Promise<GoalList> {
    const project = await this.access.viewable(user, q.project_id);
    const { rows, total } = await this.goals.list({
      projectId: q.project_id,
      userId: user?.id ?? 0,
      search: q.search?.trim() ?? '',
      commonOnly: q.common_only ?? false,
      showCommon: q.show_common ?? false,
      showDeleted: q.show_deleted ?? false,
      limit: q.limit ?? GOALS_LIST_PAGE,
      offset: q.offset ?? 0,
    });
    const conversions = await this.goals.conversionsOf(rows.map((row) => Number(row.id)), user?.id ?? 0);
    return { goals: rows.map((row) => view(row, user, project, conversions.get(Number(row.id)))), totals: total };
  }

  async byIds(user: Principal, dto: GoalsByIdsDto): Promise<GoalList> {
    const project = await this.access.viewable(user, dto.project_id);
    const rows = dto.ids.length === 0 ? [] : await this.goals.visibleByIds(dto.project_id, user.id, dto.ids);
    const conversions = await this.goals.conversionsOf(rows.map((row) => Number(row.id)), user.id);
    return { goals: rows.map((row) => view(row, user, project, conversions.get(Number(row.id)))), totals: rows.length };
  }

  /**
   * The goals' counts over the period, in the order asked, by one ClickHouse query. The caller
   * views the project (the guard's check) and sees each goal (a public one of the project, or
   * their own; a deleted one too, as the list shows them); any other id (another user's personal
   * goal, another project's, none) is a 404 and nothing is read.
   */
  async counts(project: ProjectRights, user: Principal | null, dto: GoalCountsDto): Promise<GoalCountsReport> {
    const { dateStart, dateEnd } = datesOf(dto, moscowDate(this.clock()));
    const rows = await this.goals.visibleByIds(project.id, user?.id ?? 0, dto.goal_ids);
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    const goals = dto.goal_ids.map((id) => byId.get(id));
    if (goals.some((g) => g === undefined)) throw new NotFoundException(GOAL_TEXTS.notFound);
    const seen = goals as GoalRow[];
    const [row] = await this.engine.rows(compileGoalCounts(project.id, seen.map((g) => g.body), dateStart, dateEnd), 'goals');
    const figures = goalCountsOf(row, seen.length);
    return { date_start: dateStart, date_end: dateEnd, goals: dto.goal_ids.map((goal_id, i) => ({ goal_id, ...figures[i]! })) };
  }

  async create(user: Principal, dto: CreateGoalDto): Promise<Goal> {
    const project = await this.access.viewable(user, dto.project_id);
    if (!goalsWritable(project)) throw new ForbiddenException(FORBIDDEN);
    const templateId = dto.goal_template_id ?? null;
    let fields: GoalFields;
    if (templateId !== null) {
      const template = AUTOGOAL_TEMPLATES.find((t) => t.id === templateId);
      if (!template) throw new BadRequestException(GOAL_TEXTS.templateUnknown);
      // An autogoal is public, protected and sent (§4), with its template's conditions.
      fields = { title: dto.title, description: dto.description ?? template.description, access: 'common', is_protected: true, is_td_sending: true, body: template.body };
    } else {
      if (!dto.body) throw new BadRequestException(GOAL_TEXTS.conditionsRequired);
      fields = forcedFlags({
        title: dto.title,
        description: dto.description ?? '',
        access: dto.access ?? 'own',
        is_protected: dto.is_protected ?? false,
        is_td_sending: dto.is_td_sending ?? false,
        body: plainBody(dto.body),
      });
    }
    await this.countCreation(user);
    const row = await this.goals.insert(project.id, user.id, fields, templateId);
    if (!row) throw new BadRequestException(GOAL_TEXTS.templateCreated);
    return view(row, user, project);
  }

  async update(user: Principal, id: number, dto: UpdateGoalDto): Promise<Goal> {
    const keys = ['title', 'description', 'access', 'is_protected', 'is_td_sending', 'body'] as const;
    if (keys.every((k) => dto[k] === undefined)) throw new BadRequestException(NOTHING_TO_CHANGE);
    const current = await this.visibleGoal(user, id);
    const project = await this.access.viewable(user, current.project_id);
    if (!goalsWritable(project)) throw new ForbiddenException(FORBIDDEN);
    if (!ownedBy(current, user) && !(current.access === 'common' && project.edit)) throw new ForbiddenException(FORBIDDEN);
    // A protected goal is not changed (§4), but it may be made public: sharing it changes nothing of what it counts.
    if (current.is_protected && !onlyMakesPublic(dto, current)) throw new BadRequestException(GOAL_TEXTS.protected);
    // Public to personal: the creator's choice, and not for a goal in a funnel (funnels are public, §4).
    if (dto.access === 'own' && current.access === 'common') {
      if (!ownedBy(current, user)) throw new ForbiddenException(GOAL_TEXTS.ownerOnlyPersonal);
      if (await this.goals.inFunnel(id)) throw new BadRequestException(GOAL_TEXTS.inFunnel);
    }
    const fields = forcedFlags({
      title: dto.title ?? current.title,
      description: dto.description ?? current.description,
      access: dto.access ?? current.access,
      is_protected: dto.is_protected ?? current.is_protected,
      is_td_sending: dto.is_td_sending ?? current.is_td_sending,
      body: dto.body ? plainBody(dto.body) : current.body,
    });
    // Switching public or protected off clears sending, unless this very request asks for it.
    if (dto.is_td_sending === undefined && (fields.access === 'own' || !fields.is_protected)) fields.is_td_sending = false;
    await this.goals.update(id, fields);
    const row = await this.goals.byId(id);
    const conversions = await this.goals.conversionsOf([id], user.id);
    return view(row as GoalRow, user, project, conversions.get(id));
  }

  async remove(user: Principal, id: number): Promise<Record<string, never>> {
    const current = await this.visibleGoal(user, id);
    const project = await this.access.viewable(user, current.project_id);
    if (!goalsWritable(project)) throw new ForbiddenException(FORBIDDEN);
    if (!goalDeletable(current, user, project)) throw new ForbiddenException(GOAL_TEXTS.ownerOnly);
    await this.goals.markDeleted(id);
    return {};
  }

  async autogoals(user: Principal | null, q: AutogoalListQueryDto): Promise<AutogoalList> {
    const made = q.project_id === undefined ? new Map<number, number>() : (await this.access.viewable(user, q.project_id), await this.goals.templateGoals(q.project_id));
    const search = q.search?.trim().toLowerCase() ?? '';
    const matching = AUTOGOAL_TEMPLATES.filter((t) => search === '' || t.title.toLowerCase().includes(search) || t.description.toLowerCase().includes(search));
    const offset = q.offset ?? 0;
    const page = matching.slice(offset, offset + (q.limit ?? AUTOGOALS_PAGE));
    return { autogoals: page.map((t) => ({ ...t, goal_id: made.get(t.id) ?? null })), totals: matching.length };
  }

  /** A live goal the caller sees (a public one, or their own), else 404. */
  private async visibleGoal(user: Principal, id: number): Promise<GoalRow> {
    const row = await this.goals.byId(id);
    if (!row || row.is_deleted || (row.access !== 'common' && !ownedBy(row, user))) throw new NotFoundException(GOAL_TEXTS.notFound);
    return row;
  }

  /** Counts a creation; over the per-user limit a minute, 400 «Rate limit exceeded» (§7, §8). */
  private async countCreation(user: Principal): Promise<void> {
    const count = await this.limits.incr(`rl:goal-create:${user.id}`, RATE_WINDOW_MS);
    if (count > this.settings.goalCreationsPerMinute) throw new BadRequestException(GOAL_RATE_LIMIT_MESSAGE);
  }
}

/** Whether `user` created the goal. */
const ownedBy = (row: GoalRow, user: Principal | null): boolean => user !== null && row.owner_id !== null && Number(row.owner_id) === user.id;

/** Whether a change asks for nothing but making a personal goal public (the rest, if sent, as it is). */
function onlyMakesPublic(dto: UpdateGoalDto, current: GoalRow): boolean {
  if (dto.access !== 'common' || current.access !== 'own') return false;
  const same = <T>(sent: T | undefined, now: T): boolean => sent === undefined || sent === now;
  return (
    same(dto.title, current.title) &&
    same(dto.description, current.description) &&
    same(dto.is_protected, current.is_protected) &&
    same(dto.is_td_sending, current.is_td_sending) &&
    (dto.body === undefined || JSON.stringify(plainBody(dto.body)) === JSON.stringify(current.body))
  );
}

/** A goal as the api answers it to `user` on `project`, with the conversions built on it that the user sees. */
function view(row: GoalRow, user: Principal | null, project: ProjectRights, conversions: readonly { id: number; title: string }[] = []): Goal {
  const conditions = row.body.dimension_filters;
  return {
    id: Number(row.id),
    project_id: Number(row.project_id),
    title: row.title,
    description: row.description,
    access: row.access,
    is_protected: row.is_protected,
    is_td_sending: row.is_td_sending,
    conditions,
    body: row.body,
    conversions: [...conversions],
    email: row.email,
    is_owner: ownedBy(row, user),
    can_delete: !row.is_deleted && goalDeletable(row, user, project),
    is_deleted: row.is_deleted,
    goal_template_id: row.goal_template_id === null ? null : Number(row.goal_template_id),
    yandex_id: null,
    yandex_goal_name: null,
    is_yandex_sending: false,
    update_date: row.updated_at.toISOString(),
  };
}

/** The validated conditions as plain data: exactly the fields of the contract. */
function plainBody(body: GoalBodyDto): GoalBody {
  return {
    dimension_filters: body.dimension_filters.map(
      (rule): DimensionFilterRule => ({
        key: rule.key,
        op: rule.op,
        value: rule.value,
        ...(rule.extra?.eventClass === undefined ? {} : { extra: { eventClass: rule.extra.eventClass } }),
      }),
    ),
  };
}
