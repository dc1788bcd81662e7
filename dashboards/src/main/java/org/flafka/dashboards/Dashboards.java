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
 * The kit's Cloudera Manager dashboards: edge tier, Kafka, core tier and hosts, as CM views (one
 * tsquery per plot, every series of a plot in one chart). Every query is built from the typed
 * tsquery builder; what each chart shows and why is in docs/tools/dashboards.md.
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
        List.of(
            Chart.from0(
                "Events received and accepted per agent (events/s)",
                TsQuery.select(
                    agents,
                    total(FlumeSourceMetric.EVENT_RECEIVED_RATE, Entity.FLUME_SOURCE),
                    total(FlumeSourceMetric.EVENT_ACCEPTED_RATE, Entity.FLUME_SOURCE))),
            new Chart(
                "Channel fill per agent (percent)",
                TsQuery.select(
                    agents,
                    across(FlumeChannelMetric.CHANNEL_FILL_PERCENTAGE, Entity.FLUME_CHANNEL)),
                0.0,
                100.0),
            Chart.from0(
                "Sink drain success and attempt per agent (events/s)",
                TsQuery.select(
                    agents,
                    total(FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE, Entity.FLUME_SINK),
                    total(FlumeSinkMetric.EVENT_DRAIN_ATTEMPT_RATE, Entity.FLUME_SINK))),
            Chart.from0(
                "Channel puts attempted and succeeded, sink connection failures (per second)",
                TsQuery.select(
                    agents,
                    total(FlumeChannelMetric.EVENT_PUT_ATTEMPT_RATE, Entity.FLUME_CHANNEL),
                    total(FlumeChannelMetric.EVENT_PUT_SUCCESS_RATE, Entity.FLUME_CHANNEL),
                    total(FlumeSinkMetric.CONNECTION_FAILED_RATE, Entity.FLUME_SINK))),
            // a hostile sender's flood of connections shows here; refusals and timeouts are the
            // source's own counters, which CM does not chart (docs/guides/edge.md, "Hostile
            // senders")
            Chart.from0(
                "Open TCP/TLS syslog connections per agent",
                TsQuery.select(
                    agents, total(FlumeSourceMetric.OPEN_CONNECTIONS, Entity.FLUME_SOURCE))),
            Chart.from0(
                "Events held per agent, in memory and in the disk buffer (events)",
                TsQuery.select(
                    agents, total(FlumeChannelMetric.CHANNEL_SIZE, Entity.FLUME_CHANNEL)))));
  }

  public Dashboard kafka() {
    TsPredicate service = eq(ENTITY_NAME, kafkaService).and(category(TsPredicate.Category.SERVICE));
    return new Dashboard(
        "Flafka Kafka",
        List.of(
            Chart.from0(
                "Bytes received and fetched by consumers (bytes/s)",
                TsQuery.select(
                    service,
                    total(KafkaMetric.BYTES_RECEIVED_RATE, Entity.KAFKA_BROKER),
                    total(KafkaMetric.BYTES_FETCHED_RATE, Entity.KAFKA_BROKER))),
            Chart.from0(
                "Messages in (messages/s)",
                TsQuery.select(
                    service, total(KafkaMetric.MESSAGES_RECEIVED_RATE, Entity.KAFKA_BROKER))),
            Chart.from0(
                "Topic " + topic + " bytes in per broker (bytes/s)",
                TsQuery.select(eq(KAFKA_TOPIC_NAME, topic), of(KafkaMetric.BYTES_RECEIVED_RATE))),
            Chart.from0(
                "Topic " + topic + " messages in per partition (messages/s)",
                TsQuery.select(eq(KAFKA_TOPIC_NAME, topic), of(KafkaMetric.LOG_END_OFFSET).dt0())),
            new Chart(
                "Consumer-group lag rate per group, the core group is "
                    + coreGroup
                    + " (messages/s)",
                TsQuery.select(
                    eq(SERVICE_NAME, kafkaService), of(KafkaMetric.CONSUMER_GROUP_LAG_RATE)),
                null,
                null)));
  }

  public Dashboard core() {
    TsPredicate agents = agentsOf(coreService);
    return new Dashboard(
        "Flafka core tier",
        List.of(
            Chart.from0(
                "Events drained to HDFS and accepted from Kafka per agent (events/s)",
                TsQuery.select(
                    agents,
                    total(FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE, Entity.FLUME_SINK),
                    total(FlumeSourceMetric.EVENT_ACCEPTED_RATE, Entity.FLUME_SOURCE))),
            new Chart(
                "Channel fill per agent (percent)",
                TsQuery.select(
                    agents,
                    across(FlumeChannelMetric.CHANNEL_FILL_PERCENTAGE, Entity.FLUME_CHANNEL)),
                0.0,
                100.0)));
  }

  public Dashboard hosts() {
    return new Dashboard(
        "Flafka hosts",
        List.of(
            Chart.from0(
                "Network receive and transmit per host (bytes/s)",
                TsQuery.select(
                    category(TsPredicate.Category.HOST),
                    total(NetworkInterfaceMetric.BYTES_RECEIVE_RATE, Entity.NETWORK_INTERFACE),
                    total(NetworkInterfaceMetric.BYTES_TRANSMIT_RATE, Entity.NETWORK_INTERFACE)))));
  }
}
