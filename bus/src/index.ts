export { BusFullError, MemoryBus, type MemoryBusOptions } from './memory.js';
export { KafkaPublisher, KafkaConsumer, committedMessages, ensureTopic, partitionKey, parseMessage, type KafkaBusConfig } from './kafka.js';
export { BatchMerger } from './merge.js';
