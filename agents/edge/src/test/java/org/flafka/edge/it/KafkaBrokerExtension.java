package org.flafka.edge.it;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import org.flafka.stack.KafkaBroker;
import org.flafka.stack.KafkaCluster;
import org.flafka.stack.LatencyProxy;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real KRaft broker for a test class, used as the cluster itself: {@code @RegisterExtension
 * static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();} starts it before the
 * class's first test and closes it (its data deleted) after the last.
 */
public final class KafkaBrokerExtension
    implements KafkaCluster, BeforeAllCallback, AfterAllCallback {

  private final boolean behindProxy;
  private KafkaBroker broker;

  /** A broker its clients reach directly. */
  public KafkaBrokerExtension() {
    this(false);
  }

  private KafkaBrokerExtension(boolean behindProxy) {
    this.behindProxy = behindProxy;
  }

  /**
   * A broker its clients reach through a proxy without delay, which can black-hole them ({@link
   * #clientProxy()}).
   */
  public static KafkaBrokerExtension behindProxy() {
    return new KafkaBrokerExtension(true);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    broker =
        behindProxy
            ? KafkaBroker.startRestartable(Files.createTempDirectory("kafka-"), Map.of())
            : KafkaBroker.start(Files.createTempDirectory("kafka-"));
  }

  /** The proxy of a broker {@link #behindProxy()}. */
  public LatencyProxy clientProxy() {
    return broker.clientProxy();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    broker.close();
  }

  @Override
  public String bootstrapServers() {
    return broker.bootstrapServers();
  }
}
