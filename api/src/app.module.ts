import { Module, type DynamicModule } from '@nestjs/common';
import type { ClickHouseClient } from '@clickhouse/client';
import { ReportController } from './reports/report.controller.js';
import { ReportService } from './reports/report.service.js';
import { ReportEngine } from './reports/engine.js';
import { ServiceController } from './service/service.controller.js';

@Module({})
export class AppModule {
  /** The api's module, given the ClickHouse client of the process that composes it. */
  static forRoot(clickhouse: ClickHouseClient): DynamicModule {
    return {
      module: AppModule,
      controllers: [ReportController, ServiceController],
      providers: [{ provide: ReportEngine, useValue: new ReportEngine(clickhouse) }, ReportService],
    };
  }
}
