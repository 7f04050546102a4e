import type { Logger, Metrics } from '@stat/telemetry';
import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { ClickHouseClient } from '@stat/storage';
import { ReportController } from './reports/report.controller.js';
import { DictionaryRepository, ReportAnswers, ReportEngine, Sampling, type QueryContext } from './engine/index.js';
import { DictionaryController } from './reports/dictionaries.js';
import { FilterValuesController } from './reports/filter-values.js';
import { RealtimeController } from './realtime/realtime.controller.js';
import { RealtimeService } from './realtime/realtime.service.js';
import { DemoController } from './service/demo.controller.js';
import { ServiceController } from './service/service.controller.js';
import { LatencyRepository } from './service/latency.repository.js';
import { AccessGuard } from './auth/access.guard.js';
import { AuthController } from './auth/auth.controller.js';
import { AuthService } from './auth/auth.service.js';
import { ProjectAccess } from './auth/project-access.js';
import { RateLimiter } from './auth/rate-limit.js';
import { SessionService } from './auth/sessions.js';
import { POLICY, type Policy } from './auth/policy.js';
import { UserController } from './users/user.controller.js';
import { UsersRepository } from './users/users.repository.js';
import { AccessController } from './access/access.controller.js';
import { AccessService } from './access/access.service.js';
import { ProofOfWork } from './captcha/pow.js';
import { Favicons } from './projects/favicons.js';
import { MetricsRepository } from './projects/metrics.js';
import { ProjectController, ProjectListController } from './projects/project.controller.js';
import { ProjectService } from './projects/project.service.js';
import { ProjectsRepository } from './projects/projects.repository.js';
import { RatingController } from './projects/rating.controller.js';
import { RatingService } from './projects/rating.service.js';
import { RatingReport } from './projects/rating-report.js';
import { RatingReportController } from './projects/rating-report.controller.js';
import { ConversionReportController, ConversionsController } from './conversions/conversions.controller.js';
import { ConversionsService } from './conversions/conversions.service.js';
import { ExportController } from './export/export.controller.js';
import { ExportService } from './export/export.service.js';
import { SavedFiltersController } from './saved-filters/saved-filters.controller.js';
import { SavedFiltersRepository } from './saved-filters/saved-filters.repository.js';
import { SavedFiltersService } from './saved-filters/saved-filters.service.js';
import { GoalCountsController, GoalsController } from './goals/goals.controller.js';
import { GoalsRepository } from './goals/goals.repository.js';
import { GoalsService } from './goals/goals.service.js';
import { FunnelReportController, FunnelsController } from './funnels/funnels.controller.js';
import { FunnelsRepository } from './funnels/funnels.repository.js';
import { FunnelsService } from './funnels/funnels.service.js';
import { ConstructorController } from './constructor/constructor.controller.js';
import { ConstructorService } from './constructor/constructor.service.js';
import { ConstructorTemplatesController } from './constructor-templates/constructor-templates.controller.js';
import { ConstructorTemplatesRepository } from './constructor-templates/constructor-templates.repository.js';
import { ConstructorTemplatesService } from './constructor-templates/constructor-templates.service.js';
import type { PageFetcher } from './net/safe-fetch.js';
import type { Db } from './db/db.js';
import type { Kv } from './kv/kv.js';
import { CLICKHOUSE, CLOCK, DB, DEMO_STATE, FETCHER, LIMIT_KV, SESSION_KV, SETTINGS, type ApiSettings, type Clock, type DemoStateOf } from './tokens.js';

/** What the composition root gives the api. */
export interface ApiDeps {
  clickhouse: ClickHouseClient;
  db: Db;
  sessions: Kv;
  limits: Kv;
  settings: ApiSettings;
  fetcher: PageFetcher;
  clock: Clock;
  /** whether the demo project is still being filled (the embedded server's seed) */
  demoState: DemoStateOf;
  /** the process's metrics and logger, for the report engine's queries */
  metrics: Metrics;
  logger: Logger;
  /** the request being served (its id, the report it reads), for the report engine's query ids and labels */
  requestContext: () => QueryContext | undefined;
}

/** Every controller of the api; the authorization test walks their routes. */
export const CONTROLLERS: Type[] = [
  ReportController,
  FilterValuesController,
  RealtimeController,
  DictionaryController,
  ServiceController,
  DemoController,
  AuthController,
  UserController,
  ProjectController,
  ProjectListController,
  AccessController,
  RatingController,
  RatingReportController,
  SavedFiltersController,
  ExportController,
  ConversionsController,
  ConversionReportController,
  GoalsController,
  GoalCountsController,
  FunnelsController,
  FunnelReportController,
  ConstructorController,
  ConstructorTemplatesController,
];

// The server's clock is public; declared here because the service controller predates policies.
Reflect.defineMetadata(POLICY, { kind: 'public' } satisfies Policy, ServiceController);

@Module({})
export class AppModule {
  /** The api's module, given what the process that composes it opened. */
  static forRoot(deps: ApiDeps): DynamicModule {
    const engine = new ReportEngine(deps.clickhouse, deps.settings.reportQuerySettings, { metrics: deps.metrics, logger: deps.logger }, deps.requestContext);
    const providers: Provider[] = [
      { provide: CLICKHOUSE, useValue: deps.clickhouse },
      { provide: DB, useValue: deps.db },
      { provide: SESSION_KV, useValue: deps.sessions },
      { provide: LIMIT_KV, useValue: deps.limits },
      { provide: SETTINGS, useValue: deps.settings },
      { provide: FETCHER, useValue: deps.fetcher },
      { provide: CLOCK, useValue: deps.clock },
      { provide: DEMO_STATE, useValue: deps.demoState },
      { provide: ReportEngine, useValue: engine },
      { provide: Sampling, useValue: new Sampling(engine, deps.settings.reportSampleMinEvents) },
      ReportAnswers,
      RealtimeService,
      DictionaryRepository,
      LatencyRepository,
      UsersRepository,
      SessionService,
      RateLimiter,
      AuthService,
      ProjectAccess,
      ProofOfWork,
      ProjectsRepository,
      MetricsRepository,
      Favicons,
      RatingService,
      RatingReport,
      ProjectService,
      AccessService,
      SavedFiltersRepository,
      SavedFiltersService,
      ExportService,
      ConversionsService,
      GoalsRepository,
      GoalsService,
      FunnelsRepository,
      FunnelsService,
      ConstructorService,
      ConstructorTemplatesRepository,
      ConstructorTemplatesService,
      { provide: APP_GUARD, useClass: AccessGuard },
    ];
    return { module: AppModule, controllers: CONTROLLERS, providers };
  }
}
