export { BusFullError, MemoryBus, type MemoryBusOptions } from './memory.js';
export { KafkaPublisher, KafkaConsumer, KafkaDeadLetters, KafkaWatch, committedMessages, deadLetterTopic, ensureTopic, partitionKey, type KafkaBusConfig, type KafkaLogEntry } from './kafka.js';
export { BatchMerger } from './merge.js';
