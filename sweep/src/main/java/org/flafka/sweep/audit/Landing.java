package org.flafka.sweep.audit;

import java.net.URI;

/** Where a trial's events land, for the audit to read back. */
public sealed interface Landing {

  /**
   * The core agent's HDFS sinks wrote under {@code root} ({@code <root>/dt=.../host=.../}), as
   * {@code format} (core_hdfs_format: text or avro) compressed with {@code codec} (core_hdfs_codec:
   * snappy or none). The agents are stopped before the audit runs, so no file is still open.
   */
  record Hdfs(URI root, String format, String codec) implements Landing {}

  /**
   * The edge agent's Kafka sinks wrote to {@code topic} (headers as Kafka record headers, body as
   * the value).
   */
  record KafkaTopic(String bootstrapServers, String topic) implements Landing {}
}
