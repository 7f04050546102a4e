import { ingestionSuite } from './testing/ingestion-suite.js';

// Needs: the real Kafka of infra/kafka.sh (KAFKA_BROKERS, default 127.0.0.1:9092), PostgreSQL
// (DATABASE_URL) and Redis (REDIS_URL) of infra/. Collector, aggregator and api run in the test's
// process joined through Kafka; ClickHouse is chDB here.
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
ingestionSuite(
  'cluster mode through real Kafka: no hit can stop ingestion',
  {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS || '127.0.0.1:9092',
    KAFKA_TOPIC: `stat-hits-property-${run}`,
    KAFKA_GROUP: `stat-aggregator-property-${run}`,
    KAFKA_PARTITIONS: '3',
    DATABASE_URL: process.env.DATABASE_URL || 'postgres://stat:stat@127.0.0.1:5432/stat',
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  },
  { numRuns: 6, seed: 20261124 },
);
