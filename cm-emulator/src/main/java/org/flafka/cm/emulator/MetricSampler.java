package org.flafka.cm.emulator;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.flafka.stack.AgentMetrics;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.KafkaCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one sample of everything the emulator reports, stamped with one time: each running agent's
 * Flume metrics and CPU time, the in-JVM broker's BrokerTopicMetrics and per-partition log end
 * offset MBeans, consumer-group lag through AdminClient and {@code /proc/net/dev}. Counters become
 * per-second rates against the previous sample of the same process (a counter that went down, e.g.
 * after a restart, starts a new baseline instead of giving a negative rate, like tsquery's {@code
 * dt0}).
 *
 * <p>A counter first seen after the first round (a new agent process, a meter Kafka creates on a
 * topic's first write) counts from 0 one collection interval before: its first point is its value
 * over {@code metricCollectionFrequencyMs}. So the sum over a series' points of value × seconds
 * since the previous point (the first point: × the collection interval) is the counter, exactly,
 * which is how the sweep's {@code cm} target reads counters.
 */
final class MetricSampler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MetricSampler.class);
  private static final Path PROC_NET_DEV = Path.of("/proc/net/dev");

  private record Previous(long value, Instant at) {}

  private final MetricStore store;
  private final Topology topology;
  private final Supplier<List<FlumeRole>> roles;
  private final KafkaCluster kafka;
  private final Duration interval;
  private final Map<String, Previous> previous = new HashMap<>();
  private Admin admin;

  /** When the previous round ran; null before the first. */
  private Instant previousRound;

  MetricSampler(
      MetricStore store,
      Topology topology,
      Supplier<List<FlumeRole>> roles,
      KafkaCluster kafka,
      Duration interval) {
    this.store = store;
    this.topology = topology;
    this.roles = roles;
    this.kafka = kafka;
    this.interval = interval;
  }

  /**
   * One sampling round; each part fails alone (a restarting agent does not stop Kafka's samples).
   */
  synchronized void sample() {
    Instant now = Instant.now();
    for (FlumeRole role : roles.get()) {
      role.agent()
          .filter(AgentProcess::isAlive)
          .ifPresent(
              agent -> {
                try {
                  sampleAgent(role, agent, agent.metrics(), now);
                } catch (RuntimeException e) {
                  LOG.debug("no metrics from {} this round: {}", role.name(), e.getMessage());
                }
                try {
                  sampleCpu(role, agent, now);
                } catch (IOException | RuntimeException e) {
                  LOG.debug("no CPU time of {} this round: {}", role.name(), e.getMessage());
                }
              });
    }
    if (kafka != null) {
      try {
        sampleBrokerMBeans(now);
      } catch (JMException | RuntimeException e) {
        LOG.debug("no broker MBeans this round: {}", e.getMessage());
      }
      try {
        sampleLogEndOffsets(now);
      } catch (JMException | RuntimeException e) {
        LOG.debug("no log end offsets this round: {}", e.getMessage());
      }
      try {
        sampleConsumerLag(now);
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        LOG.debug("no consumer lag this round: {}", e.getMessage());
      }
    }
    try {
      sampleNetwork(now);
    } catch (IOException | RuntimeException e) {
      LOG.debug("no network counters this round: {}", e.getMessage());
    }
    previousRound = now;
  }

  private void sampleAgent(FlumeRole role, AgentProcess agent, AgentMetrics metrics, Instant now) {
    for (Map.Entry<String, Map<String, Long>> component : metrics.counters().entrySet()) {
      String[] kindAndName = component.getKey().split("\\.", 2);
      if (kindAndName.length != 2) {
        continue;
      }
      List<MetricNames.Mapping> mappings;
      String category;
      String crossEntityName;
      switch (kindAndName[0]) {
        case "SOURCE" -> {
          mappings = MetricNames.FLUME_SOURCE;
          category = "FLUME_SOURCE";
          crossEntityName = "flume_sources";
        }
        case "CHANNEL" -> {
          mappings = MetricNames.FLUME_CHANNEL;
          category = "FLUME_CHANNEL";
          crossEntityName = "flume_channels";
        }
        case "SINK" -> {
          mappings = MetricNames.FLUME_SINK;
          category = "FLUME_SINK";
          crossEntityName = "flume_sinks";
        }
        default -> {
          continue;
        }
      }
      String id = role.name() + ":" + kindAndName[1];
      TsEntity entity =
          store.entity(
              id,
              () -> {
                Map<String, String> attributes =
                    topology.roleAttributes(
                        id, topology.flumeService(), "FLUME", "AGENT", category);
                attributes.put("roleName", role.name());
                attributes.put("roleConfigGroup", role.group());
                // CM's Flume component attributes ("Time Series Entities and their Attributes")
                attributes.put("flumeComponent", kindAndName[1]);
                attributes.put("agentName", agent.name());
                return new TsEntity(
                    id,
                    id,
                    crossEntityName,
                    attributes,
                    Set.of(
                        role.name(),
                        topology.flumeService(),
                        topology.cluster(),
                        topology.hostId()));
              });
      for (MetricNames.Mapping mapping : mappings) {
        Long counter = component.getValue().get(mapping.counter());
        if (counter != null) {
          record(entity, mapping, agent.pid() + "/" + id, counter, now);
        } else if (mapping.kind() == MetricNames.Kind.GAUGE) {
          try {
            entity.record(
                mapping.cmName(), now, metrics.gauge(component.getKey(), mapping.counter()));
          } catch (IllegalArgumentException absent) {
            // this component type does not report the gauge
          }
        }
      }
    }
  }

  /**
   * The agent process's user and kernel CPU time from {@code /proc/<pid>/stat} (utime, stime; Linux
   * only), split from the JDK's total so no clock-tick rate is assumed.
   */
  private void sampleCpu(FlumeRole role, AgentProcess agent, Instant now) throws IOException {
    Path stat = Path.of("/proc", Long.toString(agent.pid()), "stat");
    if (!Files.isReadable(stat)) {
      return;
    }
    String text = Files.readString(stat);
    String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
    long userTicks = Long.parseLong(fields[11]);
    long systemTicks = Long.parseLong(fields[12]);
    long totalMicros = agent.cpuTime().toNanos() / 1000;
    TsEntity entity = store.get(role.name());
    if (entity == null || userTicks + systemTicks == 0) {
      return;
    }
    long userMicros = Math.round((double) totalMicros * userTicks / (userTicks + systemTicks));
    record(entity, MetricNames.ROLE_CPU.get(0), agent.pid() + "/" + role.name(), userMicros, now);
    record(
        entity,
        MetricNames.ROLE_CPU.get(1),
        agent.pid() + "/" + role.name(),
        totalMicros - userMicros,
        now);
  }

  private void sampleBrokerMBeans(Instant now) throws JMException {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> names =
        server.queryNames(new ObjectName("kafka.server:type=BrokerTopicMetrics,*"), null);
    for (ObjectName name : names) {
      String meter = name.getKeyProperty("name");
      String topic = name.getKeyProperty("topic");
      TsEntity entity = topic == null ? store.get(topology.kafkaBrokerRole()) : brokerTopic(topic);
      if (entity == null) {
        continue;
      }
      for (MetricNames.Mapping mapping : MetricNames.KAFKA_BROKER_TOPIC) {
        if (mapping.counter().equals(meter)) {
          long count = ((Number) server.getAttribute(name, "Count")).longValue();
          record(entity, mapping, entity.id(), count, now);
        } else if (mapping.counter().equals(meter + ".OneMinuteRate")) {
          entity.record(
              mapping.cmName(),
              now,
              ((Number) server.getAttribute(name, "OneMinuteRate")).doubleValue());
        }
      }
    }
  }

  private TsEntity brokerTopic(String topic) {
    String topicId = topology.kafkaService() + ":" + topic;
    Map<String, String> topicAttributes =
        topology.roleAttributes(topicId, topology.kafkaService(), "KAFKA", null, "KAFKA_TOPIC");
    topicAttributes.put("kafkaTopicName", topic);
    topicAttributes.put("kafkaInternalTopic", Boolean.toString(topic.startsWith("__")));
    store.declare(
        new TsEntity(
            topicId,
            topicId,
            null,
            topicAttributes,
            Set.of(topology.kafkaService(), topology.cluster())));
    String id = topology.kafkaBrokerRole() + ":" + topic;
    return store.entity(
        id,
        () -> {
          Map<String, String> attributes =
              topology.roleAttributes(
                  id, topology.kafkaService(), "KAFKA", "KAFKA_BROKER", "KAFKA_BROKER_TOPIC");
          attributes.put("roleName", topology.kafkaBrokerRole());
          attributes.put("kafkaTopicName", topic);
          return new TsEntity(
              id,
              id,
              "kafka_broker_topics",
              attributes,
              Set.of(
                  topicId,
                  topology.kafkaBrokerRole(),
                  topology.kafkaService(),
                  topology.cluster(),
                  topology.hostId()));
        });
  }

  /**
   * Each partition replica's log end offset ({@code
   * kafka.log:type=Log,name=LogEndOffset,topic=,partition=}).
   */
  private void sampleLogEndOffsets(Instant now) throws JMException {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    for (ObjectName name :
        server.queryNames(new ObjectName("kafka.log:type=Log,name=LogEndOffset,*"), null)) {
      String topic = name.getKeyProperty("topic");
      String partition = name.getKeyProperty("partition");
      if (topic == null || partition == null) {
        continue;
      }
      TsEntity brokerTopic = brokerTopic(topic);
      String id = topology.kafkaBrokerRole() + ":" + topic + ":" + partition;
      TsEntity replica =
          store.entity(
              id,
              () -> {
                Map<String, String> attributes =
                    topology.roleAttributes(
                        id, topology.kafkaService(), "KAFKA", "KAFKA_BROKER", "KAFKA_REPLICA");
                attributes.put("roleName", topology.kafkaBrokerRole());
                attributes.put("kafkaTopicName", topic);
                attributes.put("kafkaPartitionId", partition);
                return new TsEntity(
                    id,
                    id,
                    "kafka_replicas",
                    attributes,
                    Set.of(
                        brokerTopic.id(),
                        topology.kafkaBrokerRole(),
                        topology.kafkaService(),
                        topology.cluster(),
                        topology.hostId()));
              });
      long offset = ((Number) server.getAttribute(name, "Value")).longValue();
      record(replica, MetricNames.LOG_END_OFFSET, id, offset, now);
    }
  }

  /** A group's summed lag (messages) at a sampling round. */
  private record Lag(Instant at, long messages) {}

  private final Map<String, Lag> previousLag = new HashMap<>();

  private void sampleConsumerLag(Instant now) throws Exception {
    if (admin == null) {
      admin = kafka.admin();
    }
    for (ConsumerGroupListing group : admin.listConsumerGroups().all().get(10, TimeUnit.SECONDS)) {
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin
              .listConsumerGroupOffsets(group.groupId())
              .partitionsToOffsetAndMetadata()
              .get(10, TimeUnit.SECONDS);
      if (committed.isEmpty()) {
        continue;
      }
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
          admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS);
      long lag = 0;
      for (Map.Entry<TopicPartition, OffsetAndMetadata> entry : committed.entrySet()) {
        if (entry.getValue() != null && ends.containsKey(entry.getKey())) {
          lag += Math.max(0, ends.get(entry.getKey()).offset() - entry.getValue().offset());
        }
      }
      String id = topology.kafkaService() + ":" + group.groupId();
      TsEntity entity =
          store.entity(
              "consumer-group/" + id,
              () -> {
                Map<String, String> attributes =
                    topology.roleAttributes(
                        id, topology.kafkaService(), "KAFKA", null, "KAFKA_CONSUMER_GROUP");
                attributes.put("kafkaConsumerGroupName", group.groupId());
                return new TsEntity(
                    "consumer-group/" + id,
                    id,
                    MetricNames.CONSUMER_GROUP_LAG.metric().entity().crossEntityName(),
                    attributes,
                    Set.of(topology.kafkaService(), topology.cluster()));
              });
      // CM names the lag only as a rate (messages/s): the lag's change per second, negative while
      // the group catches up; the first round of a group has no rate yet
      Lag previous = previousLag.put(id, new Lag(now, lag));
      if (previous != null && now.isAfter(previous.at())) {
        double seconds = Duration.between(previous.at(), now).toNanos() / 1e9;
        entity.record(
            MetricNames.CONSUMER_GROUP_LAG.cmName(), now, (lag - previous.messages()) / seconds);
      }
    }
  }

  private void sampleNetwork(Instant now) throws IOException {
    if (!Files.isReadable(PROC_NET_DEV)) {
      return;
    }
    List<String> lines = Files.readAllLines(PROC_NET_DEV);
    for (String line : lines.subList(Math.min(2, lines.size()), lines.size())) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String iface = line.substring(0, colon).strip();
      String[] fields = line.substring(colon + 1).strip().split("\\s+");
      if (fields.length < 9) {
        continue;
      }
      String id = topology.hostId() + ":" + iface;
      TsEntity entity =
          store.entity(
              id,
              () -> {
                Map<String, String> attributes = topology.attributes(id, "NETWORK_INTERFACE");
                attributes.put("hostname", topology.hostname());
                attributes.put("hostId", topology.hostId());
                attributes.put("iface", iface);
                return new TsEntity(
                    id,
                    topology.hostname() + ":" + iface,
                    "network_interfaces",
                    attributes,
                    Set.of(topology.hostId(), topology.cluster()));
              });
      record(entity, MetricNames.NETWORK_INTERFACE.get(0), id, Long.parseLong(fields[0]), now);
      record(entity, MetricNames.NETWORK_INTERFACE.get(1), id, Long.parseLong(fields[8]), now);
    }
  }

  /**
   * A gauge as it is; a counter as its rate since the previous sample of the same source. A counter
   * first seen after the first round counts from 0 one collection interval before (see the class
   * comment), so what it counted before it was first seen is not lost and the points integrate to
   * the counter.
   */
  private void record(
      TsEntity entity, MetricNames.Mapping mapping, String sourceKey, long value, Instant now) {
    if (mapping.kind() == MetricNames.Kind.GAUGE) {
      entity.record(mapping.cmName(), now, value * mapping.scale());
      return;
    }
    String key = sourceKey + "/" + mapping.counter();
    Previous before = previous.put(key, new Previous(value, now));
    double seconds;
    if (before == null) {
      if (previousRound == null) {
        return;
      }
      before = new Previous(0, now);
      seconds = interval.toMillis() / 1000.0;
    } else {
      seconds = (now.toEpochMilli() - before.at().toEpochMilli()) / 1000.0;
    }
    if (value >= before.value() && seconds > 0) {
      entity.record(mapping.cmName(), now, (value - before.value()) * mapping.scale() / seconds);
    }
  }

  @Override
  public synchronized void close() {
    if (admin != null) {
      admin.close();
    }
  }
}
