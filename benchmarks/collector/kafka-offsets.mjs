// Prints the number of messages in a Kafka topic (sum of the partitions' high-water marks),
// or 0 when the topic does not exist yet. run.sh takes the difference around a run to check
// that every hit the collector answered 204 reached Kafka.
//
//   node benchmarks/collector/kafka-offsets.mjs <topic>     (KAFKA_BROKERS, default 127.0.0.1:9092)
import { Kafka, logLevel } from 'kafkajs';

const topic = process.argv[2];
if (!topic) {
  console.error('usage: kafka-offsets.mjs <topic>');
  process.exit(2);
}
const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const admin = new Kafka({ clientId: 'bench-offsets', brokers, logLevel: logLevel.ERROR }).admin();
await admin.connect();
try {
  const topics = await admin.listTopics();
  if (!topics.includes(topic)) {
    console.log(0);
  } else {
    const offsets = await admin.fetchTopicOffsets(topic);
    console.log(offsets.reduce((sum, p) => sum + Number(p.high), 0));
  }
} finally {
  await admin.disconnect();
}
