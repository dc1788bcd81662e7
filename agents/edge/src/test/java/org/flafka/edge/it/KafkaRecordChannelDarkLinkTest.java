package org.flafka.edge.it;

import static org.flafka.edge.it.KafkaRecordChannels.putInOneTransaction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flume.Channel;
import org.apache.flume.ChannelException;
import org.apache.flume.instrumentation.util.JMXPollUtil;
import org.flafka.edge.channel.KafkaRecordChannel;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link KafkaRecordChannel} when the link to a real KRaft broker goes dark (a proxy that drops
 * every byte without closing anything, as a firewall or a dead route does): a put's commit fails at
 * {@code ackTimeoutMillis} instead of waiting in Kafka's {@code flush()}, the producer is replaced
 * and the source's retry is delivered by its successor; and {@code stop()} returns while a put
 * waits, failing that put.
 */
@Tag("e2e")
class KafkaRecordChannelDarkLinkTest {

  @RegisterExtension static final KafkaBrokerExtension kafka = KafkaBrokerExtension.behindProxy();

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aPutKafkaDoesNotAcknowledgeInTimeIsRefusedAndItsRetryIsDeliveredByANewProducer()
      throws Exception {
    Channel channel = channel("c-dark", "kafka.topic", "channel-dark", "ackTimeoutMillis", "3000");
    try {
      putInOneTransaction(channel, "before-the-dark");
      // The link goes dark: the producer sends into it, and Kafka would fail the records only
      // after delivery.timeout.ms (120 s)
      kafka.clientProxy().blackHole();
      long started = System.nanoTime();
      ChannelException refused;
      try {
        refused =
            assertThrows(
                ChannelException.class, () -> putInOneTransaction(channel, "kept-0", "kept-1"));
      } finally {
        kafka.clientProxy().restore();
      }
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      assertEquals(
          "Kafka record channel c-dark: Kafka did not acknowledge every event of the transaction"
              + " within ackTimeoutMillis (3000 ms)",
          refused.getMessage());
      assertTrue(
          tookMillis >= 3000 && tookMillis < 60_000,
          "the put ended at ackTimeoutMillis, not at delivery.timeout.ms: " + tookMillis);

      // the source puts the batch again until it is accepted: a new producer delivers it
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (true) {
        try {
          putInOneTransaction(channel, "kept-0", "kept-1");
          break;
        } catch (ChannelException e) {
          assertTrue(System.nanoTime() < deadline, "a new producer takes the put: " + e);
          Thread.sleep(100);
        }
      }
    } finally {
      channel.stop();
    }
    Map<String, String> metrics = JMXPollUtil.getAllMBeans().get("CHANNEL.c-dark");
    assertEquals("3", metrics.get("EventPutSuccessCount"));
    List<String> delivered =
        EdgeTestSupport.awaitRecords(kafka, "channel-dark", r -> true, 3).stream()
            .map(r -> new String(r.value(), StandardCharsets.US_ASCII))
            .distinct()
            .sorted()
            .toList();
    assertEquals(List.of("before-the-dark", "kept-0", "kept-1"), delivered);
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void stopReturnsWhileAPutWaitsForADarkLinkAndThatPutFails() throws Exception {
    // ackTimeoutMillis is left at its default (delivery.timeout.ms + 10 s): only stop() ends the
    // put below in time
    Channel channel = channel("c-stop", "kafka.topic", "channel-stop");
    CompletableFuture<Void> waiting;
    long stopMillis;
    try {
      putInOneTransaction(channel, "before-the-dark");
      kafka.clientProxy().blackHole();
      waiting = CompletableFuture.runAsync(() -> putInOneTransaction(channel, "in-flight"));
      Thread.sleep(1000);
      assertTrue(!waiting.isDone(), "the put waits for Kafka's acknowledgement");
      long started = System.nanoTime();
      channel.stop();
      stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    } finally {
      kafka.clientProxy().restore();
    }
    assertTrue(stopMillis < 30_000, "stop() returned within its bound: " + stopMillis + " ms");
    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> waiting.get(30, TimeUnit.SECONDS));
    assertInstanceOf(ChannelException.class, failed.getCause());
    Map<String, String> metrics = JMXPollUtil.getAllMBeans().get("CHANNEL.c-stop");
    assertEquals("1", metrics.get("EventPutSuccessCount"));
    assertEquals("1", metrics.get("RollbackCount"));
  }

  private static Channel channel(String name, String... keyValues) {
    return KafkaRecordChannels.start(kafka.bootstrapServers(), name, keyValues);
  }
}
