package org.flafka.edge.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flume.channel.kafka.KafkaChannel;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.flafka.edge.channel.KafkaRecordChannel;
import org.flafka.edge.it.EdgeTestSupport;
import org.flafka.edge.it.KafkaBrokerExtension;
import org.flafka.edge.sink.TopicMessageLimit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The edge source on the two Kafka channels of the template's {@code edge_channel_type: kafka} and
 * a real broker, with Kafka refusing records over 4 KiB. The channel refuses the whole batch
 * holding the one large event; before the source put such a batch again in halves, it retried it
 * for ever and read nothing more from its connections (the tests then fail waiting for the ten
 * events sent after it).
 *
 * <p>Flume's channel is given the limit as its producer's {@code max.request.size}, which refuses
 * the record before batching. With a topic's {@code max.message.bytes} instead, Kafka 4.3.1's
 * producer may split and resend the refused batch without end (KAFKA-8350, {@link
 * TopicMessageLimit}), and Flume's channel then never stops: its {@code stop()} closes the producer
 * without a timeout (seen once in CI, a 120 s hang). Our channel checks both limits before sending
 * anything, so its test takes each in turn.
 */
@Tag("e2e")
class SyslogSourceKafkaChannelTest {

  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @Test
  void flumesKafkaChannelAnEventTheProducerRefusesIsDroppedAloneAndTheRestOfItsBatchArrives()
      throws Exception {
    try (Admin admin = kafka.admin()) {
      admin
          .createTopics(List.of(new NewTopic("refused", 1, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    Map<String, String> channel =
        Map.of(
            "kafka.bootstrap.servers",
            kafka.bootstrapServers(),
            "kafka.topic",
            "refused",
            "parseAsFlumeEvent",
            "true",
            "kafka.producer.compression.type",
            "snappy",
            "kafka.producer.acks",
            "all",
            "kafka.producer.max.request.size",
            "4096");
    try (SourceHarness harness =
        new SourceHarness(
            SyslogSourceTest.source(
                "tcp", "batchSize", "10", "batchDurationMillis", "60000", "tcp.workerThreads", "1"),
            channel,
            new KafkaChannel())) {
      List<String> got = SyslogSourceTest.sendTen(harness, Set.of(3));
      // Kafka wrote the small events of every refused put (the producer refuses only the large
      // record), so the ones put again are there more than once: at least once, never the large
      // one.
      assertEquals(
          SyslogSourceTest.small(Set.of(3)),
          got.stream().distinct().sorted().toList(),
          got.toString());
      System.out.println("the nine small events arrived as " + got.size() + " records: " + got);
      SyslogSourceCounter counter = harness.counter();
      assertEquals(1, counter.getRecordTooLargeDropCount());
      assertEquals(19, counter.getEventAcceptedCount());
      assertEquals(0, counter.getChannelWriteFail());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"max.message.bytes", "max.request.size"})
  void kafkaRecordChannelAnEventKafkaWouldRefuseIsDroppedAloneAndEveryOtherArrivesOnce(String limit)
      throws Exception {
    String topic = "refused-records-" + limit.replace('.', '-');
    try (Admin admin = kafka.admin()) {
      NewTopic newTopic = new NewTopic(topic, 1, (short) 1);
      if (limit.equals("max.message.bytes")) {
        newTopic.configs(Map.of(limit, "4096"));
      }
      admin.createTopics(List.of(newTopic)).all().get(30, TimeUnit.SECONDS);
    }
    Map<String, String> channel =
        new HashMap<>(
            Map.of(
                "kafka.bootstrap.servers",
                kafka.bootstrapServers(),
                "kafka.topic",
                topic,
                "kafka.producer.linger.ms",
                "0"));
    if (limit.equals("max.request.size")) {
      channel.put("kafka.producer.max.request.size", "4096");
    }
    try (SourceHarness harness =
            new SourceHarness(
                SyslogSourceTest.source(
                    "tcp",
                    "batchSize",
                    "10",
                    "batchDurationMillis",
                    "200",
                    "tcp.workerThreads",
                    "1"),
                channel,
                new KafkaRecordChannel());
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), harness.source.getPort())) {
      socket
          .getOutputStream()
          .write(SyslogSourceTest.tenThenTenAfter(Set.of(3)).getBytes(StandardCharsets.UTF_8));
      List<String> expected = new ArrayList<>(SyslogSourceTest.small(Set.of(3)));
      expected.addAll(SyslogSourceTest.after());
      // The channel checks the limit before it sends anything, so nothing of a refused put is
      // written: every small event exactly once, in the order sent (one partition).
      List<String> got =
          EdgeTestSupport.awaitRecords(kafka, topic, r -> true, expected.size()).stream()
              .map(r -> new String(r.value(), StandardCharsets.UTF_8))
              .toList();
      assertEquals(expected, got);
      SyslogSourceCounter counter = harness.counter();
      assertEquals(1, counter.getRecordTooLargeDropCount());
      assertEquals(19, counter.getEventAcceptedCount());
      assertEquals(0, counter.getChannelWriteFail());
    }
  }
}
