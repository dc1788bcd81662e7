package org.flafka.stack;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * A running Kafka cluster of the local stack, in this JVM ({@link KafkaBroker}) or in its own
 * process ({@link KafkaBrokerProcess}). Topic changes go through the AdminClient, as the sweep does
 * on a real cluster.
 */
public interface KafkaCluster {
  /** How long topic operations wait for the cluster before they fail. */
  Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

  /** {@code host:port} for {@code bootstrap.servers}. */
  String bootstrapServers();

  /** A new AdminClient for this cluster; the caller closes it. */
  default Admin admin() {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers(),
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            (int) ADMIN_TIMEOUT.toMillis()));
  }

  /**
   * Creates {@code topic} with {@code partitions} partitions (replication factor 1) and waits for
   * its leaders.
   */
  default void createTopic(String topic, int partitions) {
    try (Admin admin = admin()) {
      await(
          admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all(),
          "create topic " + topic + " with " + partitions + " partitions");
      awaitLeaders(admin, topic, partitions);
    }
  }

  /**
   * Raises the partition count of {@code topic} to {@code partitions} (Kafka cannot lower it) and
   * waits for leaders.
   */
  default void alterPartitions(String topic, int partitions) {
    try (Admin admin = admin()) {
      await(
          admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions))).all(),
          "raise the partitions of topic " + topic + " to " + partitions);
      awaitLeaders(admin, topic, partitions);
    }
  }

  /** The number of partitions of {@code topic}. */
  default int partitions(String topic) {
    try (Admin admin = admin()) {
      return describe(admin, topic).partitions().size();
    }
  }

  /**
   * The offset {@code group} has committed on partition {@code partition} of {@code topic}, 0 when
   * it has committed none.
   */
  default long committedOffset(String group, String topic, int partition) {
    try (Admin admin = admin()) {
      OffsetAndMetadata offset =
          await(
                  admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                  "read the offsets of group " + group)
              .get(new TopicPartition(topic, partition));
      return offset == null ? 0 : offset.offset();
    }
  }

  private void awaitLeaders(Admin admin, String topic, int partitions) {
    long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
    while (true) {
      List<TopicPartitionInfo> infos = describeIfKnown(admin, topic);
      if (infos.size() == partitions
          && infos.stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new StackException(
            "topic "
                + topic
                + " on "
                + bootstrapServers()
                + " has no leader for every one of "
                + partitions
                + " partitions after "
                + ADMIN_TIMEOUT.toSeconds()
                + " s: "
                + infos);
      }
      ChildProcess.sleep(Duration.ofMillis(50));
    }
  }

  /**
   * The partitions of {@code topic}, or none while the broker does not know the topic yet: a topic
   * just created reaches the broker's metadata a moment after createTopics returns, and describing
   * it in between fails with "This server does not host this topic-partition".
   */
  private List<TopicPartitionInfo> describeIfKnown(Admin admin, String topic) {
    try {
      return describe(admin, topic).partitions();
    } catch (StackException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return List.of();
      }
      throw e;
    }
  }

  private TopicDescription describe(Admin admin, String topic) {
    return await(admin.describeTopics(Set.of(topic)).allTopicNames(), "describe topic " + topic)
        .get(topic);
  }

  private <T> T await(KafkaFuture<T> future, String what) {
    try {
      return future.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new StackException(
          "could not " + what + " on " + bootstrapServers() + ": " + e.getCause().getMessage(),
          e.getCause());
    } catch (TimeoutException e) {
      throw new StackException(
          "could not "
              + what
              + " on "
              + bootstrapServers()
              + " within "
              + ADMIN_TIMEOUT.toSeconds()
              + " s",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StackException("interrupted while trying to " + what, e);
    }
  }
}
