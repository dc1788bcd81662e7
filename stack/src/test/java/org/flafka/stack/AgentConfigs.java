package org.flafka.stack;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/** Agent configurations the stack's tests run, as Flume properties. */
final class AgentConfigs {
  /**
   * JVM options for the processes tests start: short-lived JVMs spend most of their CPU compiling,
   * and the C1 compiler alone halves that. Never for measurements: the sweep uses the processes'
   * defaults.
   */
  static final List<String> TEST_JVM_OPTIONS =
      List.of("-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  private AgentConfigs() {}

  /** seq source (events "0", "1", …) → memory channel → Kafka sink, snappy-compressed. */
  static String seqToKafka(String agent, int events, String bootstrapServers, String topic) {
    return String.join(
        "\n",
        agent + ".sources = r1",
        agent + ".channels = c1",
        agent + ".sinks = k1",
        agent + ".sources.r1.type = seq",
        agent + ".sources.r1.totalEvents = " + events,
        agent + ".sources.r1.batchSize = 50",
        agent + ".sources.r1.channels = c1",
        agent + ".channels.c1.type = memory",
        agent + ".channels.c1.capacity = 1000",
        agent + ".channels.c1.transactionCapacity = 100",
        agent + ".sinks.k1.type = org.apache.flume.sink.kafka.KafkaSink",
        agent + ".sinks.k1.channel = c1",
        agent + ".sinks.k1.kafka.bootstrap.servers = " + bootstrapServers,
        agent + ".sinks.k1.kafka.topic = " + topic,
        agent + ".sinks.k1.flumeBatchSize = 50",
        agent + ".sinks.k1.kafka.producer.compression.type = snappy",
        agent + ".sinks.k1.kafka.producer.linger.ms = 5",
        "");
  }

  /**
   * Kafka source → file channel → HDFS sink writing snappy-compressed text files that roll every
   * {@code rollCount} events. The sink checks the count before it writes the next event, so a file
   * also closes after a second idle.
   */
  static String kafkaToHdfs(
      String agent,
      String bootstrapServers,
      String topic,
      URI hdfs,
      Path channelDir,
      int rollCount) {
    return String.join(
        "\n",
        agent + ".sources = r1",
        agent + ".channels = c1",
        agent + ".sinks = k1",
        agent + ".sources.r1.type = org.apache.flume.source.kafka.KafkaSource",
        agent + ".sources.r1.channels = c1",
        agent + ".sources.r1.kafka.bootstrap.servers = " + bootstrapServers,
        agent + ".sources.r1.kafka.topics = " + topic,
        agent + ".sources.r1.kafka.consumer.group.id = " + agent,
        agent + ".sources.r1.kafka.consumer.auto.offset.reset = earliest",
        agent + ".sources.r1.batchSize = 100",
        agent + ".sources.r1.batchDurationMillis = 200",
        // an idle poll backs the source off up to 5 s by default: it would join the consumer group
        // late
        agent + ".sources.r1.backoffSleepIncrement = 100",
        agent + ".sources.r1.maxBackoffSleep = 500",
        agent + ".channels.c1.type = file",
        agent + ".channels.c1.checkpointDir = " + channelDir.resolve("checkpoint"),
        agent + ".channels.c1.dataDirs = " + channelDir.resolve("data"),
        agent + ".channels.c1.transactionCapacity = 1000",
        agent + ".sinks.k1.type = hdfs",
        agent + ".sinks.k1.channel = c1",
        agent + ".sinks.k1.hdfs.path = " + hdfs + "/flume/" + topic,
        agent + ".sinks.k1.hdfs.filePrefix = events",
        agent + ".sinks.k1.hdfs.fileType = CompressedStream",
        agent + ".sinks.k1.hdfs.codeC = snappy",
        agent + ".sinks.k1.hdfs.writeFormat = Text",
        agent + ".sinks.k1.hdfs.batchSize = 100",
        agent + ".sinks.k1.hdfs.rollCount = " + rollCount,
        agent + ".sinks.k1.hdfs.rollSize = 0",
        agent + ".sinks.k1.hdfs.rollInterval = 0",
        agent + ".sinks.k1.hdfs.idleTimeout = 1",
        // one datanode: without this the sink rolls a file on every batch
        // (docs/reference/dependencies.md, "HDFS with one DataNode")
        agent + ".sinks.k1.hdfs.minBlockReplicas = 1",
        agent + ".sinks.k1.hdfs.useLocalTimeStamp = true",
        "");
  }

  /**
   * A seq source with a round-robin selector: Flume 1.11 fails to validate {@code load_balancing}
   * and drops the source with only a WARN (docs/reference/dependencies.md, "Flume drops a component
   * it cannot configure").
   */
  static String invalidSelector(String agent) {
    return String.join(
        "\n",
        agent + ".sources = broken",
        agent + ".channels = c1 c2",
        agent + ".sinks = k1 k2",
        agent + ".sources.broken.type = seq",
        agent + ".sources.broken.channels = c1 c2",
        agent + ".sources.broken.selector.type = load_balancing",
        agent + ".channels.c1.type = memory",
        agent + ".channels.c2.type = memory",
        agent + ".sinks.k1.type = null",
        agent + ".sinks.k1.channel = c1",
        agent + ".sinks.k2.type = null",
        agent + ".sinks.k2.channel = c2",
        "");
  }
}
