package org.flafka.edge.it;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.flume.Channel;
import org.apache.flume.Context;
import org.apache.flume.Transaction;
import org.apache.flume.conf.Configurables;
import org.apache.flume.event.EventBuilder;
import org.flafka.edge.channel.KafkaRecordChannel;

/**
 * What the tests of {@link KafkaRecordChannel} against a real broker share: a started channel, and
 * a put of whole transactions as Flume's channel processor makes them.
 */
final class KafkaRecordChannels {

  private KafkaRecordChannels() {}

  /**
   * A {@link KafkaRecordChannel} named {@code name}, configured for {@code bootstrapServers} with
   * no linger (each commit sends at once) and the {@code key, value} pairs given, then started.
   */
  static Channel start(String bootstrapServers, String name, String... keyValues) {
    Map<String, String> props =
        new HashMap<>(
            Map.of("kafka.bootstrap.servers", bootstrapServers, "kafka.producer.linger.ms", "0"));
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    KafkaRecordChannel channel = new KafkaRecordChannel();
    channel.setName(name);
    Configurables.configure(channel, new Context(props));
    channel.start();
    return channel;
  }

  /**
   * Puts the bodies in one transaction; on a failure rolls it back, as Flume's channel processor
   * does, and rethrows.
   */
  static void putInOneTransaction(Channel channel, byte[]... bodies) {
    Transaction tx = channel.getTransaction();
    tx.begin();
    try {
      for (byte[] body : bodies) {
        channel.put(EventBuilder.withBody(body, Map.of()));
      }
      tx.commit();
    } catch (RuntimeException e) {
      tx.rollback();
      throw e;
    } finally {
      tx.close();
    }
  }

  /** {@link #putInOneTransaction(Channel, byte[]...)} of ASCII bodies. */
  static void putInOneTransaction(Channel channel, String... bodies) {
    putInOneTransaction(
        channel,
        Arrays.stream(bodies)
            .map(body -> body.getBytes(StandardCharsets.US_ASCII))
            .toArray(byte[][]::new));
  }
}
