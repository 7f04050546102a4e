export { BusFullError, MemoryBus, type MemoryBusOptions } from './memory.js';
export { KafkaPublisher, KafkaConsumer, KafkaDeadLetters, committedMessages, deadLetterTopic, ensureTopic, partitionKey, type KafkaBusConfig } from './kafka.js';
export { BatchMerger } from './merge.js';
