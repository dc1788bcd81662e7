package org.flafka.cm.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.flafka.cm.CmClient;
import org.flafka.cm.CmClientConfig;
import org.flafka.cm.CmException;
import org.flafka.cm.TimeSeriesQuery;
import org.flafka.cm.contract.CmSpecValidator.Strictness;
import org.flafka.cm.contract.CmValidatingProxy;
import org.flafka.cm.model.ApiCommand;
import org.flafka.cm.model.ApiDashboard;
import org.flafka.cm.model.ApiRole;
import org.flafka.cm.model.ApiTimeSeries;
import org.flafka.cm.model.ApiTimeSeriesResponse;
import org.flafka.cm.tsquery.FlumeSourceMetric;
import org.flafka.cm.tsquery.KafkaMetric;
import org.flafka.cm.tsquery.RoleMetric;
import org.flafka.cm.tsquery.SweepQueries;
import org.flafka.cm.tsquery.TsExpression;
import org.flafka.cm.tsquery.TsPredicate;
import org.flafka.cm.tsquery.TsQuery;
import org.flafka.stack.KafkaBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulator end to end, through our client, with every request and response validated against
 * the CM v32 spec (DECLARED_ONLY): a real broker, one Flume role backed by a real agent process, a
 * config PUT and a restart that really restart it, syslog lines in, and the agent's and broker's
 * real rates out of {@code /timeseries}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("e2e")
class CmEmulatorEndToEndTest {
  private static final List<String> TEST_JVM_OPTIONS =
      List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
  private static final String TOPIC = "syslog";

  private KafkaBroker kafka;
  private CmEmulator emulator;
  private CmValidatingProxy proxy;
  private CmClient client;
  private String cluster;
  private String flume;
  private String kafkaService;
  private String group;
  private List<String> roles;

  @BeforeAll
  void start(@TempDir Path tmp) {
    kafka = KafkaBroker.start(tmp.resolve("kafka"));
    kafka.createTopic(TOPIC, 3);
    emulator =
        CmEmulator.start(
            CmEmulatorConfig.builder(tmp.resolve("cm"))
                .kafka(kafka)
                .credentials("admin", "s3cret")
                .sampleInterval(Duration.ofSeconds(1))
                .agentJvmOptions(TEST_JVM_OPTIONS)
                .build());
    proxy = new CmValidatingProxy(emulator.url(), Strictness.DECLARED_ONLY);
    client =
        CmClient.connect(
            CmClientConfig.from(
                Map.of(
                    CmClientConfig.URL,
                    proxy.url(),
                    CmClientConfig.USER,
                    "admin",
                    CmClientConfig.COMMAND_POLL_INTERVAL_MS,
                    "200"),
                Map.of(CmClientConfig.DEFAULT_PASSWORD_ENV, "s3cret")));
    cluster = client.findCluster(null).name();
    flume = client.findService(cluster, CmClient.FLUME_SERVICE_TYPE, null).name();
    kafkaService = client.findService(cluster, CmClient.KAFKA_SERVICE_TYPE, null).name();
    Map<String, List<ApiRole>> byGroup =
        client.rolesByConfigGroup(cluster, flume, CmClient.FLUME_AGENT_ROLE_TYPE);
    assertEquals(1, byGroup.size(), "one Flume role in one group: " + byGroup);
    group = byGroup.keySet().iterator().next();
    roles = byGroup.get(group).stream().map(ApiRole::name).toList();
  }

  @AfterAll
  void stop() {
    if (proxy != null) {
      proxy.close();
    }
    if (emulator != null) {
      emulator.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  @Order(1)
  void aConfigPutAndRestartRunTheRealAgentAndTimeseriesShowsItsRates() throws Exception {
    int port = freePort();
    client.updateFlumeAgentConfig(
        cluster, flume, group, "tier1", syslogToKafka("tier1", port, ""), "e2e");
    assertEquals("STALE", client.roles(cluster, flume).get(0).configStalenessStatus());
    List<ApiCommand> done = client.restartRoles(cluster, flume, roles, command -> {});
    assertTrue(
        done.get(0).resultMessage().contains("Started Flume agent 'tier1'"),
        done.get(0).resultMessage());
    assertEquals("STARTED", client.roles(cluster, flume).get(0).roleState());
    assertTrue(emulator.agent(roles.get(0)).orElseThrow().isAlive());

    Instant from = Instant.now().minusSeconds(1);
    int sent = sendSyslog(port, 4, 50);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (emulator.agent(roles.get(0)).orElseThrow().metrics().sink("k1", "EventDrainSuccessCount")
        < sent) {
      assertTrue(
          System.nanoTime() < deadline, "the agent did not drain " + sent + " events to Kafka");
      Thread.sleep(100);
    }
    Thread.sleep(1500);
    emulator.sampleNow();

    List<ApiTimeSeries> service = series(SweepQueries.flumeServiceRates(flume), from);
    assertEquals(
        List.of(
            "total_event_put_success_rate_across_flume_channels",
            "total_event_take_success_rate_across_flume_channels",
            "total_event_drain_success_rate_across_flume_sinks",
            "total_event_accepted_rate_across_flume_sources"),
        service.stream().map(s -> s.metadata().metricName()).toList());
    for (ApiTimeSeries series : service) {
      assertEquals(flume, series.metadata().attribute("entityName"));
      assertEquals(List.of("events"), series.metadata().unitNumerators());
      assertEquals(List.of("seconds"), series.metadata().unitDenominators());
      assertTrue(max(series) > 0, "no non-zero rate in " + series);
    }
    // the rates integrate to what was sent: sum(rate * interval) over the window is the event count
    ApiTimeSeries accepted = service.get(3);
    assertEquals(sent, integral(accepted), sent * 0.05, "accepted events per the rates");

    List<ApiTimeSeries> agent = series(SweepQueries.flumeAgentRates(flume), from);
    assertEquals(roles.get(0), agent.get(0).metadata().attribute("roleName"));
    assertTrue(max(agent.get(0)) > 0, "agent drain rate: " + agent.get(0));
    // a Flume component carries CM's attributes: roleName, flumeComponent, agentName
    List<ApiTimeSeries> sources =
        series(
            TsQuery.select(
                TsPredicate.category(TsPredicate.Category.FLUME_SOURCE),
                TsExpression.of(FlumeSourceMetric.EVENT_ACCEPTED_RATE)),
            from);
    assertEquals(1, sources.size(), sources.toString());
    assertEquals(roles.get(0), sources.get(0).metadata().attribute("roleName"));
    assertEquals("r1", sources.get(0).metadata().attribute("flumeComponent"));
    assertEquals("tier1", sources.get(0).metadata().attribute("agentName"));

    List<ApiTimeSeries> kafkaRates = series(SweepQueries.kafkaServiceRates(kafkaService), from);
    assertEquals(2, kafkaRates.size(), "bytes and messages in: " + kafkaRates);
    assertTrue(max(kafkaRates.get(0)) > 0, "broker bytes in: " + kafkaRates.get(0));
    assertEquals(
        sent, integral(kafkaRates.get(1)), sent * 0.05, "messages in per the broker's meter");

    // nothing consumes the topic, so Kafka has no BytesOutPerSec meter for it and the emulator no
    // fetched series
    List<ApiTimeSeriesResponse> topicResponse =
        client.queryTimeSeries(
            TimeSeriesQuery.raw(
                SweepQueries.kafkaTopicRates(kafkaService, TOPIC).toString(), from, Instant.now()));
    List<ApiTimeSeries> topic = topicResponse.get(0).timeSeries();
    assertEquals(
        List.of("total_kafka_bytes_received_rate_across_kafka_broker_topics"),
        topic.stream().map(s -> s.metadata().metricName()).toList());
    assertTrue(
        topicResponse
            .get(0)
            .warnings()
            .get(0)
            .startsWith(
                "No time series matched total_kafka_bytes_fetched_rate_across_kafka_broker_topics"),
        topicResponse.get(0).warnings().toString());
    assertEquals(kafkaService + ":" + TOPIC, topic.get(0).metadata().attribute("entityName"));
    assertTrue(max(topic.get(0)) > 0, "topic bytes in: " + topic.get(0));

    // per partition: each replica's log end offset, which together count every message the sink
    // produced
    List<ApiTimeSeries> offsets =
        series(
            TsQuery.select(
                TsPredicate.eq(TsPredicate.Attribute.KAFKA_TOPIC_NAME, TOPIC),
                TsExpression.of(KafkaMetric.LOG_END_OFFSET).last()),
            from);
    assertEquals(
        List.of("0", "1", "2"),
        offsets.stream().map(s -> s.metadata().attribute("kafkaPartitionId")).toList());
    assertTrue(
        offsets.stream().allMatch(s -> "KAFKA_REPLICA".equals(s.metadata().attribute("category"))));
    assertEquals(
        kafkaService + "-KAFKA_BROKER-1:" + TOPIC + ":0",
        offsets.get(0).metadata().attribute("entityName"));
    assertEquals(
        sent, offsets.stream().mapToDouble(s -> s.data().get(0).value()).sum(), "log end offsets");
    // dt0: per partition, each point is the growth since the previous raw point per second.
    // Both queries end a sampling interval ago: a round stamped before then is in the store before
    // either query runs, so the two see the same points (a round stamped just before "now" could
    // land between them)
    Instant to = Instant.now().minusSeconds(1);
    TsPredicate ofTopic = TsPredicate.eq(TsPredicate.Attribute.KAFKA_TOPIC_NAME, TOPIC);
    List<ApiTimeSeries> raw =
        client
            .queryTimeSeries(
                TimeSeriesQuery.raw(
                    TsQuery.select(ofTopic, TsExpression.of(KafkaMetric.LOG_END_OFFSET)).toString(),
                    from,
                    to))
            .get(0)
            .timeSeries();
    List<ApiTimeSeries> perPartition =
        client
            .queryTimeSeries(
                TimeSeriesQuery.raw(
                    TsQuery.select(ofTopic, TsExpression.of(KafkaMetric.LOG_END_OFFSET).dt0())
                        .toString(),
                    from,
                    to))
            .get(0)
            .timeSeries();
    assertEquals("dt0(kafka_log_end_offset)", perPartition.get(0).metadata().metricName());
    assertEquals(List.of("seconds"), perPartition.get(0).metadata().unitDenominators());
    for (int p = 0; p < 3; p++) {
      var offsetPoints = raw.get(p).data();
      var ratePoints = perPartition.get(p).data();
      assertEquals(offsetPoints.size() - 1, ratePoints.size(), "one rate per pair of offsets");
      double grown = 0;
      for (int i = 0; i < ratePoints.size(); i++) {
        assertEquals(offsetPoints.get(i + 1).timestamp(), ratePoints.get(i).timestamp());
        // CM stamps points to the millisecond: the seconds between two are the difference of their
        // millis
        grown +=
            ratePoints.get(i).value()
                * (offsetPoints.get(i + 1).instant().toEpochMilli()
                    - offsetPoints.get(i).instant().toEpochMilli())
                / 1000.0;
      }
      assertEquals(
          offsetPoints.get(offsetPoints.size() - 1).value() - offsetPoints.get(0).value(),
          grown,
          1e-6,
          "partition " + p + ": the rates add up to the offsets' growth");
    }

    // the role's CPU seconds per second, from its process
    List<ApiTimeSeries> cpu =
        series(
            TsQuery.select(
                TsPredicate.eq(TsPredicate.Attribute.ROLE_NAME, roles.get(0)),
                TsExpression.of(RoleMetric.CPU_USER_RATE),
                TsExpression.of(RoleMetric.CPU_SYSTEM_RATE)),
            from);
    assertEquals(
        List.of("cpu_user_rate", "cpu_system_rate"),
        cpu.stream().map(s -> s.metadata().metricName()).toList());
    assertTrue(max(cpu.get(0)) > 0, "user CPU: " + cpu.get(0));
    assertEquals(List.of("seconds"), cpu.get(0).metadata().unitNumerators());

    List<ApiTimeSeries> host = series(SweepQueries.hostNetwork("localhost"), from);
    assertEquals(2, host.size());
    assertTrue(max(host.get(0)) > 0, "loopback receive: " + host.get(0));

    List<ApiTimeSeriesResponse> tenMinutely =
        client.queryTimeSeries(
            new TimeSeriesQuery(
                "SELECT last(event_accepted_rate) AS accepted WHERE roleType = AGENT AND category = FLUME_SOURCE",
                from,
                Instant.now(),
                TimeSeriesQuery.Rollup.TEN_MINUTELY,
                true));
    ApiTimeSeries source = tenMinutely.get(0).timeSeries().get(0);
    assertEquals("accepted", source.metadata().alias());
    assertEquals("TEN_MINUTELY", source.metadata().rollupUsed());
    assertEquals(1, source.data().size(), "last() gives one point");

    // consumer-group lag as CM names it: a rate, the lag's change in messages per second; a group
    // with committed committed at 0 lags by what was sent, then catches up at once
    Instant lagFrom = Instant.now();
    try (org.apache.kafka.clients.admin.Admin admin = kafka.admin()) {
      Map<
              org.apache.kafka.common.TopicPartition,
              org.apache.kafka.clients.consumer.OffsetAndMetadata>
          committed = new java.util.HashMap<>();
      for (int p = 0; p < 3; p++) {
        committed.put(
            new org.apache.kafka.common.TopicPartition(TOPIC, p),
            new org.apache.kafka.clients.consumer.OffsetAndMetadata(0));
      }
      admin.alterConsumerGroupOffsets("lag-test", committed).all().get(30, TimeUnit.SECONDS);
      emulator.sampleNow();
      Thread.sleep(1100);
      emulator.sampleNow();
      for (var partition : committed.keySet()) {
        committed.put(
            partition,
            new org.apache.kafka.clients.consumer.OffsetAndMetadata(
                admin
                    .listOffsets(
                        Map.of(partition, org.apache.kafka.clients.admin.OffsetSpec.latest()))
                    .partitionResult(partition)
                    .get(30, TimeUnit.SECONDS)
                    .offset()));
      }
      admin.alterConsumerGroupOffsets("lag-test", committed).all().get(30, TimeUnit.SECONDS);
      Thread.sleep(1100);
      emulator.sampleNow();
    }
    ApiTimeSeries lag =
        series(
                TsQuery.select(
                    TsPredicate.eq(TsPredicate.Attribute.SERVICE_NAME, kafkaService),
                    TsExpression.of(KafkaMetric.CONSUMER_GROUP_LAG_RATE)),
                lagFrom)
            .stream()
            .filter(s -> "lag-test".equals(s.metadata().attribute("kafkaConsumerGroupName")))
            .findFirst()
            .orElseThrow();
    assertEquals("KAFKA_CONSUMER_GROUP", lag.metadata().attribute("category"));
    assertEquals(List.of("messages"), lag.metadata().unitNumerators());
    assertEquals(List.of("seconds"), lag.metadata().unitDenominators());
    assertTrue(
        lag.data().stream().anyMatch(point -> point.value() < -sent / 10.0),
        "the lag falls by " + sent + " messages within a second or so: " + lag.data());
    proxy.assertConforms();
  }

  @Test
  @Order(2)
  void aBrokenConfigFailsTheRestartNamingWhatFlumeDropped() {
    String broken =
        syslogToKafka("tier1", freePort(), "tier1.sources.r1.selector.type = load_balancing\n");
    client.updateFlumeAgentConfig(cluster, flume, group, "tier1", broken, "broken");
    CmException failure =
        assertThrows(
            CmException.class, () -> client.restartRoles(cluster, flume, roles, command -> {}));
    assertEquals(CmException.Reason.COMMAND_FAILED, failure.reason());
    String message = failure.getMessage();
    assertTrue(
        message.contains("'Restart'") && message.contains("on role " + roles.get(0)), message);
    assertTrue(message.contains("Could not configure source  r1"), message);
    assertTrue(message.contains("LOAD_BALANCING"), message);
    assertEquals("STOPPED", client.roles(cluster, flume).get(0).roleState());
    assertFalse(emulator.agent(roles.get(0)).isPresent());
    proxy.assertConforms();
  }

  @Test
  @Order(3)
  void dashboardsAreCreatedListedReplacedAndDeleted() {
    ApiDashboard dashboard = new ApiDashboard("Flafka test", "{\"charts\":[]}");
    assertEquals(List.of(dashboard), client.createDashboards(List.of(dashboard)));
    CmException duplicate =
        assertThrows(CmException.class, () -> client.createDashboards(List.of(dashboard)));
    assertTrue(duplicate.getMessage().contains("already exists"), duplicate.getMessage());
    ApiDashboard changed = new ApiDashboard("Flafka test", "{\"charts\":[1]}");
    client.replaceDashboard(changed);
    assertEquals(List.of(changed), client.dashboards());
    assertEquals(changed, client.dashboard("Flafka test").orElseThrow());
    assertTrue(client.deleteDashboard("Flafka test"));
    assertTrue(client.dashboard("Flafka test").isEmpty());
    assertFalse(client.deleteDashboard("Flafka test"));
    proxy.assertConforms();
  }

  @Test
  @Order(4)
  void aWrongPasswordIsRefused() {
    CmException refused =
        assertThrows(
            CmException.class,
            () ->
                CmClient.connect(
                    CmClientConfig.from(
                        Map.of(CmClientConfig.URL, proxy.url(), CmClientConfig.USER, "admin"),
                        Map.of(CmClientConfig.DEFAULT_PASSWORD_ENV, "wrong"))));
    assertEquals(CmException.Reason.UNAUTHORIZED, refused.reason());
  }

  private List<ApiTimeSeries> series(TsQuery query, Instant from) {
    List<ApiTimeSeriesResponse> responses =
        client.queryTimeSeries(TimeSeriesQuery.raw(query.toString(), from, Instant.now()));
    assertEquals(1, responses.size());
    assertTrue(
        responses.get(0).warnings() == null || responses.get(0).warnings().isEmpty(),
        query + ": " + responses.get(0).warnings());
    return responses.get(0).timeSeries();
  }

  private static double max(ApiTimeSeries series) {
    return series.data().stream().mapToDouble(point -> point.value()).max().orElse(0);
  }

  /** Sum of rate × seconds since the previous point: the count the rate was computed from. */
  private static double integral(ApiTimeSeries series) {
    double total = 0;
    Instant previous = null;
    for (var point : series.data()) {
      Instant at = point.instant();
      if (previous != null) {
        total += point.value() * Duration.between(previous, at).toMillis() / 1000.0;
      }
      previous = at;
    }
    return total;
  }

  /**
   * Sends {@code rounds} bursts of {@code perRound} RFC 3164 lines, 400 ms apart, so several
   * samples see them.
   */
  private static int sendSyslog(int port, int rounds, int perRound)
      throws IOException, InterruptedException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        OutputStream out = socket.getOutputStream()) {
      for (int round = 0; round < rounds; round++) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < perRound; i++) {
          lines
              .append("<13>Jan  1 00:00:00 host1 app: message ")
              .append(round)
              .append('-')
              .append(i)
              .append('\n');
        }
        out.write(lines.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread.sleep(400);
      }
    }
    return rounds * perRound;
  }

  private String syslogToKafka(String agent, int port, String extra) {
    return String.join(
        "\n",
        agent + ".sources = r1",
        agent + ".channels = c1",
        agent + ".sinks = k1",
        agent + ".sources.r1.type = syslogtcp",
        agent + ".sources.r1.host = 127.0.0.1",
        agent + ".sources.r1.port = " + port,
        agent + ".sources.r1.channels = c1",
        agent + ".channels.c1.type = memory",
        agent + ".channels.c1.capacity = 10000",
        agent + ".channels.c1.transactionCapacity = 100",
        agent + ".sinks.k1.type = org.apache.flume.sink.kafka.KafkaSink",
        agent + ".sinks.k1.channel = c1",
        agent + ".sinks.k1.kafka.bootstrap.servers = " + kafka.bootstrapServers(),
        agent + ".sinks.k1.kafka.topic = " + TOPIC,
        agent + ".sinks.k1.flumeBatchSize = 50",
        agent + ".sinks.k1.kafka.producer.linger.ms = 5",
        extra);
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
