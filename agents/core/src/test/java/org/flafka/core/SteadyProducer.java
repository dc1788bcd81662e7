package org.flafka.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.flafka.stack.ContractEvent;

/**
 * Writes contract events to a topic at a steady pace from a thread of its own, so that a test can
 * break something (kill the agent, stop the NameNode) while events keep arriving. Events come from
 * eight hosts with the current time; ids are {@code <prefix><n>}. {@link #stop()} returns the ids
 * Kafka acknowledged.
 */
final class SteadyProducer {

  private final String bootstrapServers;
  private final String topic;
  private final String prefix;
  private final int eventsPerTick;
  private final Duration tick;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final List<String> acknowledged = new ArrayList<>();
  private final Thread thread;
  private volatile RuntimeException failure;

  private SteadyProducer(
      String bootstrapServers, String topic, String prefix, int eventsPerTick, Duration tick) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.prefix = prefix;
    this.eventsPerTick = eventsPerTick;
    this.tick = tick;
    this.thread = new Thread(this::run, "steady-producer-" + topic);
    this.thread.setDaemon(true);
  }

  /** Starts writing {@code eventsPerTick} events every {@code tick}. */
  static SteadyProducer start(
      String bootstrapServers, String topic, String prefix, int eventsPerTick, Duration tick) {
    SteadyProducer producer =
        new SteadyProducer(bootstrapServers, topic, prefix, eventsPerTick, tick);
    producer.thread.start();
    return producer;
  }

  private void run() {
    int n = 0;
    try (KafkaProducer<byte[], byte[]> producer = ContractEvent.producer(bootstrapServers)) {
      while (running.get()) {
        List<ContractEvent> batch = new ArrayList<>(eventsPerTick);
        long now = System.currentTimeMillis();
        for (int i = 0; i < eventsPerTick; i++, n++) {
          batch.add(ContractEvent.of(prefix + n, "edge-router-" + (n % 8), now));
        }
        ContractEvent.send(producer, topic, batch);
        synchronized (acknowledged) {
          batch.forEach(event -> acknowledged.add(event.id()));
        }
        CoreStack.sleep(tick);
      }
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  /** How many events Kafka has acknowledged so far. */
  int acknowledgedCount() {
    synchronized (acknowledged) {
      return acknowledged.size();
    }
  }

  /** Stops after the batch in flight and returns every acknowledged id. */
  List<String> stop() throws InterruptedException {
    running.set(false);
    thread.join(Duration.ofSeconds(30).toMillis());
    if (failure != null) {
      throw failure;
    }
    synchronized (acknowledged) {
      return List.copyOf(acknowledged);
    }
  }
}
