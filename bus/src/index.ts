export { BusFullError, LogBus, type LogBusOptions } from './log-bus.js';
export { HitLog, decodeRecords, encodeRecords, type HitLogGauges, type HitLogOptions, type LogRecord, type Recovery } from './hit-log.js';
export { KafkaPublisher, ReconnectingKafkaPublisher, KafkaConsumer, KafkaDeadLetters, KafkaWatch, committedMessages, deadLetterTopic, ensureTopic, partitionKey, type KafkaBusConfig, type KafkaLogEntry } from './kafka.js';
export { BatchMerger } from './merge.js';
export { KafkaWithLog, type KafkaWithLogOptions } from './kafka-with-log.js';
