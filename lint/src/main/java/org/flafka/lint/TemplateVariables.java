package org.flafka.lint;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.flafka.lint.FlumeAgentConfig.Component;
import org.flafka.lint.FlumeAgentConfig.Kind;

/**
 * Findings about the template variables a user set, for {@code flafka lint --tier}: a variable the
 * rendering does not use is a warning, so a setting tuned for one core shape is not believed to
 * apply to another.
 */
public final class TemplateVariables {

  static final String RULE = "unused-variable";

  /** The core's variables that only shape Kafka sources and the channels they fill. */
  private static final Set<String> SOURCE_SIDE =
      Set.of(
          "core_kafka_sources",
          "core_source_impl",
          "core_source_batch_size",
          "core_source_batch_duration_millis",
          "core_fanout",
          "core_channel_capacity",
          "core_channel_transaction_capacity",
          "core_data_dir");

  private TemplateVariables() {}

  /**
   * Warns of each variable in {@code set} that the rendering ignores: with Kafka channels (an agent
   * without sources whose channels are Kafka consumers) the core's source-side variables.
   */
  public static List<Finding> unused(Properties rendered, Set<String> set) {
    List<Finding> findings = new ArrayList<>();
    for (FlumeAgentConfig agent : FlumeAgentConfig.parse(rendered)) {
      List<Component> channels = agent.active(Kind.CHANNEL);
      boolean kafkaChannels =
          agent.active(Kind.SOURCE).isEmpty()
              && !channels.isEmpty()
              && channels.stream()
                  .allMatch(c -> c.isType(Rules.CORE_KAFKA_CHANNEL, Rules.KAFKA_CHANNEL));
      if (!kafkaChannels) {
        continue;
      }
      for (String variable : new TreeSet<>(set)) {
        if (SOURCE_SIDE.contains(variable)) {
          findings.add(
              Finding.warning(
                  RULE,
                  variable,
                  "does not apply with core_channel_type kafka (no Kafka sources: each Kafka channel is "
                      + "a consumer drained by its HDFS sink)",
                  "remove it, or set core_channel_type to memory or file to use Kafka sources"));
        }
      }
    }
    return findings;
  }
}
