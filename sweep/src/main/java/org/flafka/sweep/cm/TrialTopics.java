package org.flafka.sweep.cm;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.flafka.contract.KafkaSecurityFailure;
import org.flafka.sweep.target.TargetException;

/**
 * The cluster's topics through Kafka's AdminClient, which Cloudera Manager cannot change
 * (docs/reference/cloudera-manager.md): a new topic per run with the run's partitions and the
 * cluster's default replication factor, removed with its consumer group once the run is over. On a
 * secure cluster the client takes the user's Kafka client properties ({@code --kafka-config}), and
 * a security failure is one line naming the setting to fix ({@link KafkaSecurityFailure}).
 */
final class TrialTopics implements AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String bootstrapServers;
  private final Map<String, String> client;
  private final Admin admin;

  /**
   * @param client Kafka client properties of a secure cluster (security.protocol, sasl.*, ssl.*),
   *     empty for PLAINTEXT
   */
  TrialTopics(String bootstrapServers, Map<String, String> client) {
    this.bootstrapServers = bootstrapServers;
    this.client = client;
    Map<String, Object> properties = new HashMap<>(client);
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    properties.put(
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Duration.ofSeconds(10).toMillis());
    try {
      this.admin = Admin.create(properties);
    } catch (KafkaException e) {
      // a login from a keytab, a key store, a secrets file: read when the client is made
      throw new TargetException(
          "could not make a Kafka client for "
              + bootstrapServers
              + ": "
              + KafkaSecurityFailure.explain(e, client).orElse(rootMessage(e))
              + "; check --kafka-config",
          e);
    }
  }

  /** Fails with a {@link TargetException} naming the servers if no broker answers. */
  void checkReachable() {
    await(admin.describeCluster().nodes(), "reach the brokers", true);
  }

  /** Creates {@code topic} with {@code partitions} partitions and waits until each has a leader. */
  void create(String topic, int partitions) {
    await(
        admin
            .createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty())))
            .all(),
        "create topic " + topic + " with " + partitions + " partitions",
        false);
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (true) {
      List<TopicPartitionInfo> infos = describe(topic);
      if (infos.size() == partitions
          && infos.stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "topic "
                + topic
                + " on "
                + bootstrapServers
                + " has no leader for every"
                + " one of its "
                + partitions
                + " partitions after "
                + TIMEOUT.toSeconds()
                + " s: "
                + infos);
      }
      sleep(Duration.ofMillis(100));
    }
  }

  /**
   * Deletes a run's topic and consumer group; what cannot be deleted stays (a topic the cluster
   * forbids to delete).
   */
  void deleteQuietly(String topic, String group) {
    try {
      // only a group that exists: deleting one that never consumed waits out the timeout on a
      // cluster whose offsets topic does not exist yet (no coordinator to ask)
      boolean exists =
          admin.listConsumerGroups().all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).stream()
              .anyMatch(listing -> listing.groupId().equals(group));
      if (exists) {
        admin
            .deleteConsumerGroups(List.of(group))
            .all()
            .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (ExecutionException | TimeoutException e) {
      // the group still has members (it expires on its own) or the cluster is gone
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    try {
      admin.deleteTopics(List.of(topic)).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // delete.topic.enable=false or the cluster is gone: the topic stays
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private List<TopicPartitionInfo> describe(String topic) {
    try {
      Map<String, TopicDescription> described =
          admin
              .describeTopics(Set.of(topic))
              .allTopicNames()
              .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      return described.get(topic).partitions();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return List.of(); // created, not yet in the metadata the broker answers from
      }
      throw new IllegalStateException(
          "could not describe topic "
              + topic
              + " on "
              + bootstrapServers
              + ": "
              + e.getCause().getMessage(),
          e.getCause());
    } catch (TimeoutException e) {
      throw unreachable("describe topic " + topic, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private <T> T await(KafkaFuture<T> future, String what, boolean targetFailure) {
    try {
      return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Optional<String> security = KafkaSecurityFailure.explain(e.getCause(), client);
      if (security.isPresent()) {
        throw new TargetException(
            "could not "
                + what
                + " at "
                + bootstrapServers
                + ": "
                + security.get()
                + " The client settings are --kafka-config's.",
            e.getCause());
      }
      String message =
          "could not " + what + " at " + bootstrapServers + ": " + e.getCause().getMessage();
      if (targetFailure
          || e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
        throw new TargetException(message + "; check --kafka-bootstrap", e.getCause());
      }
      throw new IllegalStateException(message, e.getCause());
    } catch (TimeoutException e) {
      throw unreachable(what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while trying to " + what, e);
    }
  }

  private TargetException unreachable(String what, Exception e) {
    return new TargetException(
        "could not "
            + what
            + " at "
            + bootstrapServers
            + " within "
            + TIMEOUT.toSeconds()
            + " s: check --kafka-bootstrap (the brokers must be reachable from this machine)",
        e);
  }

  private static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.toString() : root.getMessage();
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }
}
