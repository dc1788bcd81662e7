package org.flafka.edge.it;

import static org.flafka.edge.it.KafkaRecordChannels.putInOneTransaction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.flume.Channel;
import org.apache.flume.ChannelException;
import org.apache.flume.Transaction;
import org.apache.flume.instrumentation.util.JMXPollUtil;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.flafka.edge.channel.KafkaRecordChannel;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link KafkaRecordChannel} against a real KRaft broker: each committed put is in Kafka as the
 * Kafka sink's records (bodies byte-exact, the chosen headers as record headers, the key), Flume's
 * channel metrics, and every way a commit fails: the whole put refused, nothing of it written, and
 * the transaction rolled back.
 */
@Tag("e2e")
class KafkaRecordChannelTest {

  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @Test
  void eachCommittedPutIsInKafkaByteExactWithTheChosenHeadersAndTheKey() throws Exception {
    Channel channel = channel("c-exact", "kafka.topic", "exact", "recordHeaders", "host,id");
    try {
      for (int batch = 0; batch < 3; batch++) {
        Transaction tx = channel.getTransaction();
        tx.begin();
        for (int seq = batch * 100; seq < Math.min(250, batch * 100 + 100); seq++) {
          channel.put(EdgeTestSupport.routerEvent(seq));
        }
        tx.commit();
        tx.close();
      }
      Transaction tx = channel.getTransaction();
      tx.begin();
      assertNull(channel.take(), "nothing is ever taken from it: Kafka is where the events are");
      tx.commit();
      tx.close();
    } finally {
      channel.stop();
    }

    EdgeTestSupport.assertRouterRecords(kafka, "exact", 250);
    Map<String, String> metrics = JMXPollUtil.getAllMBeans().get("CHANNEL.c-exact");
    assertEquals("250", metrics.get("EventPutAttemptCount"));
    assertEquals("250", metrics.get("EventPutSuccessCount"));
    assertEquals("0", metrics.get("RollbackCount"));
  }

  @Test
  void aPutWithAnEventOverTheTopicsLimitIsRefusedBeforeAnythingOfItIsWritten() throws Exception {
    try (Admin admin = kafka.admin()) {
      admin
          .createTopics(
              List.of(
                  new NewTopic("refused", 1, (short) 1)
                      .configs(Map.of("max.message.bytes", "4096"))))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    Channel channel = channel("c-refused", "kafka.topic", "refused");
    // Random bytes, so that snappy cannot shrink the record under the limit.
    byte[] large = new byte[8000];
    new Random(42).nextBytes(large);
    try {
      ChannelException refused =
          assertThrows(
              ChannelException.class,
              () ->
                  putInOneTransaction(
                      channel,
                      "small-1".getBytes(StandardCharsets.US_ASCII),
                      large,
                      "small-2".getBytes(StandardCharsets.US_ASCII)));
      assertTrue(
          refused.getMessage().contains("bytes, over topic refused's max.message.bytes (4096)"),
          refused.getMessage());
      // what the edge source looks for to put the rest without it
      assertInstanceOf(RecordTooLargeException.class, refused.getCause());
      putInOneTransaction(
          channel,
          "small-1".getBytes(StandardCharsets.US_ASCII),
          "small-2".getBytes(StandardCharsets.US_ASCII));
    } finally {
      channel.stop();
    }
    List<ConsumerRecord<byte[], byte[]>> records =
        EdgeTestSupport.awaitRecords(kafka, "refused", r -> true, 2);
    assertEquals(
        List.of("small-1", "small-2"),
        records.stream().map(r -> new String(r.value(), StandardCharsets.US_ASCII)).toList(),
        "each once: none twice");
    Map<String, String> metrics = JMXPollUtil.getAllMBeans().get("CHANNEL.c-refused");
    assertEquals("5", metrics.get("EventPutAttemptCount"));
    assertEquals("2", metrics.get("EventPutSuccessCount"));
    assertEquals("1", metrics.get("RollbackCount"));
  }

  @Test
  void anUnreachableBrokerFailsTheCommitAndTheTransactionRollsBack() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Channel channel =
        channel(
            "c-down",
            "kafka.bootstrap.servers",
            "127.0.0.1:" + closedPort,
            "kafka.topic",
            "down",
            "kafka.producer.max.block.ms",
            "500");
    try {
      ChannelException e =
          assertThrows(
              ChannelException.class,
              () -> putInOneTransaction(channel, "lost?".getBytes(StandardCharsets.US_ASCII)));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "Kafka record channel c-down: Kafka did not give the producer topic down's"
                      + " metadata: "),
          e.getMessage());
      assertTrue(
          e.getMessage()
              .endsWith(
                  "check that 127.0.0.1:" + closedPort + " is reachable and topic down exists"),
          e.getMessage());
    } finally {
      channel.stop();
    }
    Map<String, String> metrics = JMXPollUtil.getAllMBeans().get("CHANNEL.c-down");
    assertEquals("0", metrics.get("EventPutSuccessCount"));
    assertEquals("1", metrics.get("RollbackCount"));
  }

  @Test
  void aTransactionOverItsCapacityFailsAtThePutThatExceedsIt() {
    Channel channel = channel("c-capacity", "kafka.topic", "capacity", "transactionCapacity", "2");
    try {
      ChannelException e =
          assertThrows(
              ChannelException.class,
              () ->
                  putInOneTransaction(
                      channel, new byte[] {'a'}, new byte[] {'b'}, new byte[] {'c'}));
      assertEquals(
          "Kafka record channel c-capacity: a transaction put more than transactionCapacity (2) "
              + "events. Fix: raise transactionCapacity to at least the batch size of every source that puts "
              + "into it",
          e.getMessage());
      assertEquals(2L, ((KafkaRecordChannel) channel).getTransactionCapacity());
    } finally {
      channel.stop();
    }
  }

  private static Channel channel(String name, String... keyValues) {
    return KafkaRecordChannels.start(kafka.bootstrapServers(), name, keyValues);
  }
}
