package org.flafka.cm.tsquery;

import static org.flafka.cm.tsquery.TsPredicate.Attribute.ENTITY_NAME;
import static org.flafka.cm.tsquery.TsPredicate.Attribute.ROLE_TYPE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class TsQueryTest {

  @Test
  void buildsTheReferenceSweepQueries() {
    // the strings of docs/reference/cloudera-manager.md
    assertEquals(
        "SELECT total_event_put_success_rate_across_flume_channels, "
            + "total_event_take_success_rate_across_flume_channels, total_event_drain_success_rate_across_flume_sinks, "
            + "total_event_accepted_rate_across_flume_sources WHERE entityName = \"flume\" AND category = SERVICE",
        SweepQueries.flumeServiceRates("flume").toString());
    assertEquals(
        "SELECT total_event_drain_success_rate_across_flume_sinks, channel_fill_percentage_across_flume_channels "
            + "WHERE roleType = AGENT AND serviceName = \"flume\"",
        SweepQueries.flumeAgentRates("flume").toString());
    assertEquals(
        "SELECT total_kafka_bytes_received_rate_across_kafka_broker_topics, "
            + "total_kafka_bytes_fetched_rate_across_kafka_broker_topics WHERE entityName = \"kafka:DSHS\" AND "
            + "category = KAFKA_TOPIC",
        SweepQueries.kafkaTopicRates("kafka", "DSHS").toString());
    assertEquals(
        "SELECT total_kafka_bytes_received_rate_across_kafka_brokers, "
            + "total_kafka_messages_received_rate_across_kafka_brokers WHERE entityName = \"kafka\" AND category = "
            + "SERVICE",
        SweepQueries.kafkaServiceRates("kafka").toString());
    assertEquals(
        "SELECT total_bytes_receive_rate_across_network_interfaces, "
            + "total_bytes_transmit_rate_across_network_interfaces WHERE category = HOST AND hostname = \"h1\"",
        SweepQueries.hostNetwork("h1").toString());
  }

  @Test
  void marksWhatIsVerifiedAndWhatIsNot() {
    assertEquals(
        Verification.LIVE,
        TsExpression.total(NetworkInterfaceMetric.BYTES_RECEIVE_RATE, Entity.NETWORK_INTERFACE)
            .verification());
    TsQuery network = SweepQueries.hostNetwork("h1");
    assertEquals(Verification.DOCUMENTED, network.verification());
    assertEquals(List.of(), network.unverifiedTerms());
    assertEquals(Verification.DOCUMENTED, SweepQueries.flumeServiceRates("flume").verification());
    TsQuery perSink =
        TsQuery.select(
            TsPredicate.category(TsPredicate.Category.FLUME_SINK),
            TsExpression.of(FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE));
    assertEquals("SELECT event_drain_success_rate WHERE category = FLUME_SINK", perSink.toString());
    assertEquals(Verification.DOCUMENTED, perSink.verification());
    assertEquals(List.of(), perSink.unverifiedTerms());
    assertEquals(Verification.DOCUMENTED, KafkaMetric.CONSUMER_GROUP_LAG_RATE.verification());
  }

  @Test
  void wrapsLastAndAliases() {
    TsExpression last =
        TsExpression.total(KafkaMetric.BYTES_RECEIVED_1MIN_RATE, Entity.KAFKA_BROKER_TOPIC)
            .last()
            .as("bytes_in");
    assertEquals(
        "last(total_kafka_bytes_received_1min_rate_across_kafka_broker_topics) AS bytes_in",
        last.toString());
    assertEquals(
        "total_kafka_bytes_received_1min_rate_across_kafka_broker_topics", last.metricName());
  }

  @Test
  void perPartitionMessagesAndRoleCpuAreMarkedAsSure() {
    TsQuery partitions =
        TsQuery.select(
            TsPredicate.eq(TsPredicate.Attribute.KAFKA_TOPIC_NAME, "syslog"),
            TsExpression.of(KafkaMetric.LOG_END_OFFSET).dt0().last());
    assertEquals(
        "SELECT last(dt0(kafka_log_end_offset)) WHERE kafkaTopicName = \"syslog\"",
        partitions.toString());
    assertEquals(List.of(), partitions.unverifiedTerms());
    assertEquals(Verification.DOCUMENTED, partitions.verification());
    assertEquals(Entity.KAFKA_REPLICA, KafkaMetric.LOG_END_OFFSET.entity());
    TsQuery cpu =
        TsQuery.select(
            TsPredicate.eq(TsPredicate.Attribute.ROLE_NAME, "flume-AGENT-1"),
            TsExpression.of(RoleMetric.CPU_USER_RATE),
            TsExpression.of(RoleMetric.CPU_SYSTEM_RATE));
    assertEquals(
        "SELECT cpu_user_rate, cpu_system_rate WHERE roleName = \"flume-AGENT-1\"", cpu.toString());
    assertEquals(Verification.DOCUMENTED, cpu.verification());
  }

  @Test
  void flumeMetricsNameTheFlumeCountersBehindThem() {
    assertEquals("SOURCE.", FlumeSourceMetric.EVENT_ACCEPTED_RATE.flumeComponentPrefix());
    assertEquals("EventAcceptedCount", FlumeSourceMetric.EVENT_ACCEPTED_RATE.flumeAttribute());
    assertEquals(
        "EventTakeSuccessCount", FlumeChannelMetric.EVENT_TAKE_SUCCESS_RATE.flumeAttribute());
    assertEquals("CHANNEL.", FlumeChannelMetric.CHANNEL_SIZE.flumeComponentPrefix());
    assertEquals(false, FlumeChannelMetric.CHANNEL_SIZE.isRate());
    assertEquals(
        "EventDrainSuccessCount", FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE.flumeAttribute());
    assertEquals("SINK.", FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE.flumeComponentPrefix());
    for (FlumeMetric metric :
        List.<FlumeMetric[]>of(
                FlumeSourceMetric.values(), FlumeChannelMetric.values(), FlumeSinkMetric.values())
            .stream()
            .flatMap(java.util.Arrays::stream)
            .toList()) {
      // CM names a counter's rate <counter words>_rate: EventPutSuccessCount is
      // event_put_success_rate
      if (metric.isRate()) {
        String words =
            metric
                .flumeAttribute()
                .replaceAll("Count$", "")
                .replaceAll("([a-z])([A-Z])", "$1_$2")
                .toLowerCase(java.util.Locale.ROOT);
        assertEquals(words + "_rate", metric.metricName());
      }
    }
  }

  @Test
  void refusesAggregatesCmDoesNotOffer() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TsExpression.total(FlumeSinkMetric.EVENT_DRAIN_SUCCESS_RATE, Entity.FLUME_CHANNEL));
    assertEquals(
        "event_drain_success_rate cannot be aggregated across FLUME_CHANNEL; it can be across [FLUME_SINK]",
        e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> TsExpression.total(KafkaMetric.CONSUMER_GROUP_LAG_RATE, Entity.KAFKA_BROKER));
  }

  @Test
  void quotesNamesAndChecksTypeTokens() {
    assertEquals(
        "entityName = \"my \\\"odd\\\" svc\"",
        TsPredicate.eq(ENTITY_NAME, "my \"odd\" svc").toString());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> TsPredicate.eq(ROLE_TYPE, "agent OR 1=1"));
    assertEquals(
        "tsquery roleType value 'agent OR 1=1' must be an upper-case type name such as AGENT or "
            + "KAFKA_BROKER",
        e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> TsExpression.of(FlumeSinkMetric.BATCH_EMPTY_RATE).as("x y"));
  }
}
