package org.flafka.edge.it;

import java.io.IOException;
import java.nio.file.Files;
import org.flafka.stack.KafkaBroker;
import org.flafka.stack.KafkaCluster;
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

  private KafkaBroker broker;

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    broker = KafkaBroker.start(Files.createTempDirectory("kafka-"));
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
