package org.flafka.dashboards;

import static org.flafka.cm.tsquery.TsExpression.across;
import static org.flafka.cm.tsquery.TsExpression.of;
import static org.flafka.cm.tsquery.TsExpression.total;
import static org.flafka.cm.tsquery.TsPredicate.Attribute.ENTITY_NAME;
import static org.flafka.cm.tsquery.TsPredicate.Attribute.KAFKA_TOPIC_NAME;
import static org.flafka.cm.tsquery.TsPredicate.Attribute.ROLE_TYPE;
import static org.flafka.cm.tsquery.TsPredicate.Attribute.SERVICE_NAME;
import static org.flafka.cm.tsquery.TsPredicate.category;
import static org.flafka.cm.tsquery.TsPredicate.eq;

import java.util.List;
import org.flafka.cm.CmClient;
import org.flafka.cm.tsquery.Entity;
import org.flafka.cm.tsquery.FlumeChannelMetric;
import org.flafka.cm.tsquery.FlumeSinkMetric;
import org.flafka.cm.tsquery.FlumeSourceMetric;
import org.flafka.cm.tsquery.KafkaMetric;
import org.flafka.cm.tsquery.NetworkInterfaceMetric;
import org.flafka.cm.tsquery.TsPredicate;
import org.flafka.cm.tsquery.TsQuery;

/**
 * The kit's Cloudera Manager dashboards: edge tier, Kafka, core tier and hosts. Every query is
 * built from the typed tsquery builder; names docs/reference/cloudera-manager.md marks unverified
 * are listed in each chart's {@code unverified}.
 *
 * @param edgeService the FLUME service of the edge agents
 * @param coreService the FLUME service of the core agents (may be the same service)
 * @param kafkaService the KAFKA service
 * @param topic the topic edge agents write and core agents read
 * @param coreGroup the core agents' consumer group
 */
public record Dashboards(
    String edgeService, String coreService, String kafkaService, String topic, String coreGroup) {

  /** The names the kit's templates and the CM emulator use. */
  public static final Dashboards DEFAULTS =
      new Dashboards("flume", "flume", "kafka", "syslog", "flafka-core");

  public List<Dashboard> all() {
    return List.of(edge(), kafka(), core(), hosts());
  }

  private static TsPredicate agentsOf(String service) {
    return eq(ROLE_TYPE, CmClient.FLUME_AGENT_ROLE_TYPE).and(eq(SERVICE_NAME, service));
  }

  public Dashboard edge() {
    TsPredicate agents = agentsOf(edgeService);
    return new Dashboard(
        "Flafka edge tier",
        "Syslog into the edge agents and out to Kafka, per agent role. CM "
            + "has no site attribute: give each site's agents a role config group of their own; every series "
            + "carries its role's group (attributes.roleConfigGroup), which the legend shows.",
        List.of(
            new Chart(
                "Events received and accepted per agent",
                "Events/s that reached the agents' sources and that they put into their channels. For the "
                    + "kit's syslog source received minus accepted is every message it lost: oversize, "
                    + "malformed, refused by a full channel, or dropped by the kernel at its UDP sockets.",
                "events/s",
                List.of(
                    TsQuery.select(
                        agents,
                        total(FlumeSourceMetric.EVENT_RECEIVED_RATE, Entity.FLUME_SOURCE),
                        total(FlumeSourceMetric.EVENT_ACCEPTED_RATE, Entity.FLUME_SOURCE)))),
            new Chart(
                "Channel fill per agent",
                "Average fill of each agent's channels (max in the point's aggregateStatistics). A channel "
                    + "that stays full means the Kafka sinks cannot keep up.",
                "percent",
                List.of(
                    TsQuery.select(
                        agents,
                        across(FlumeChannelMetric.CHANNEL_FILL_PERCENTAGE, Entity.FLUME_CHANNEL)))),
            new Chart(
                "Sink drain rate per agent",
                "Events/s the Kafka sinks took from the channels and sent (drain success) against what they "
                    + "tried (drain attempt).",
                "events/s",
                List.of(
                    TsQuery.select(
                        agents,
                        total(FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE, Entity.FLUME_SINK),
                        total(FlumeSinkMetric.EVENT_DRAIN_ATTEMPT_RATE, Entity.FLUME_SINK)))),
            new Chart(
                "Drops and failures",
                "Channel puts attempted minus succeeded are events refused by a full channel; sink "
                    + "connection failures are Kafka sends that failed. The edge source's losses are in "
                    + "the first chart, as received minus accepted; which kind each was (OversizeCount, "
                    + "UdpSocketDropCount, ...) is not a CM metric: read it from the agent's /metrics.",
                "events/s",
                List.of(
                    TsQuery.select(
                        agents,
                        total(FlumeChannelMetric.EVENT_PUT_ATTEMPT_RATE, Entity.FLUME_CHANNEL),
                        total(FlumeChannelMetric.EVENT_PUT_SUCCESS_RATE, Entity.FLUME_CHANNEL),
                        total(FlumeSinkMetric.CONNECTION_FAILED_RATE, Entity.FLUME_SINK))))));
  }

  public Dashboard kafka() {
    TsPredicate service = eq(ENTITY_NAME, kafkaService).and(category(TsPredicate.Category.SERVICE));
    return new Dashboard(
        "Flafka Kafka",
        "The Kafka service between the tiers.",
        List.of(
            new Chart(
                "Bytes in and out",
                "Bytes/s written to (received) and read from (fetched) the brokers, summed over brokers. "
                    + "Fetched includes replica fetches.",
                "bytes/s",
                List.of(
                    TsQuery.select(
                        service,
                        total(KafkaMetric.BYTES_RECEIVED_RATE, Entity.KAFKA_BROKER),
                        total(KafkaMetric.BYTES_FETCHED_RATE, Entity.KAFKA_BROKER)))),
            new Chart(
                "Messages in",
                "Messages/s produced to the service: with one syslog event per message, the edge tier's "
                    + "output.",
                "messages/s",
                List.of(
                    TsQuery.select(
                        service, total(KafkaMetric.MESSAGES_RECEIVED_RATE, Entity.KAFKA_BROKER)))),
            new Chart(
                "Topic " + topic + " bytes in per broker",
                "Bytes/s into the topic on each broker: uneven lines are leader skew (per partition: the "
                    + "next chart).",
                "bytes/s",
                List.of(
                    TsQuery.select(
                        eq(KAFKA_TOPIC_NAME, topic), of(KafkaMetric.BYTES_RECEIVED_RATE)))),
            new Chart(
                "Topic " + topic + " messages in per partition",
                "Messages/s appended to each partition of the topic: the growth of each replica's log end "
                    + "offset (dt0), one line per partition and broker, so a partition's followers repeat "
                    + "its leader's line. Lines far apart are partition skew: the edge's partitioning "
                    + "favours some partitions, and the core sources reading those fall behind first. "
                    + "kafka_log_end_offset is the Kafka CSD's log_end_offset (KAFKA_REPLICA entities) "
                    + "under CM's kafka_ prefix: not seen written, UNVERIFIED.",
                "messages/s",
                List.of(
                    TsQuery.select(
                        eq(KAFKA_TOPIC_NAME, topic), of(KafkaMetric.LOG_END_OFFSET).dt0()))),
            new Chart(
                "Consumer lag (core group " + coreGroup + ")",
                "Messages the consumer groups are behind the log end, per group; the core agents' group is "
                    + coreGroup
                    + ". Which set-up feeds CM's consumer-group entity is UNVERIFIED: if CM "
                    + "shows nothing, use AdminClient offsets (the CM emulator computes lag that way).",
                "messages",
                List.of(
                    TsQuery.select(
                        eq(SERVICE_NAME, kafkaService),
                        of(KafkaMetric.CONSUMER_GROUP_LAG_RATE))))));
  }

  public Dashboard core() {
    TsPredicate agents = agentsOf(coreService);
    return new Dashboard(
        "Flafka core tier",
        "Kafka into the core agents and out to HDFS, per agent role.",
        List.of(
            new Chart(
                "Events drained to HDFS per agent",
                "Events/s the HDFS sinks wrote, against the events/s the Kafka sources took in.",
                "events/s",
                List.of(
                    TsQuery.select(
                        agents,
                        total(FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE, Entity.FLUME_SINK),
                        total(FlumeSourceMetric.EVENT_ACCEPTED_RATE, Entity.FLUME_SOURCE)))),
            new Chart(
                "Channel fill per agent",
                "Average fill of each core agent's (file) channels: rising means HDFS is slower "
                    + "than Kafka delivers.",
                "percent",
                List.of(
                    TsQuery.select(
                        agents,
                        across(
                            FlumeChannelMetric.CHANNEL_FILL_PERCENTAGE, Entity.FLUME_CHANNEL))))));
  }

  public Dashboard hosts() {
    TsPredicate hosts = category(TsPredicate.Category.HOST);
    return new Dashboard(
        "Flafka hosts",
        "Network of every host.",
        List.of(
            new Chart(
                "Network receive and transmit per host",
                "Bytes/s over all interfaces of each host. On brokers, at replication factor r, (r-1)/r of "
                    + "the broker traffic is replication between brokers, not client traffic.",
                "bytes/s",
                List.of(
                    TsQuery.select(
                        hosts,
                        total(NetworkInterfaceMetric.BYTES_RECEIVE_RATE, Entity.NETWORK_INTERFACE),
                        total(
                            NetworkInterfaceMetric.BYTES_TRANSMIT_RATE,
                            Entity.NETWORK_INTERFACE))))));
  }
}
