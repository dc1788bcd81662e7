package org.flafka.edge.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.flafka.stack.InProcessAgent;
import org.flafka.stack.StackException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Kafka sink whose batch its channel's transaction cannot hold fails every batch at run time,
 * sending the batch's first events to Kafka again on each retry. Our sink says its batch size and
 * our memory channel its transaction capacity (Flume's {@code BatchSizeSupported} and {@code
 * TransactionCapacitySupported}), so Flume refuses the sink when the agent starts, as it does for
 * Flume's own; {@code flafka lint} reports the same configuration before.
 */
@Tag("e2e")
class SinkBatchOverTransactionCapacityTest {

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void flumeRefusesAtStartUpASinkWhoseBatchATransactionCannotHold(String channelType) {
    String properties =
        EdgeTestSupport.render(
            Map.of(
                "edge_listeners",
                List.of("tcp"),
                "edge_bind_address",
                "127.0.0.1",
                "edge_tcp_port",
                0,
                "kafka_bootstrap_servers",
                "127.0.0.1:9",
                "edge_channel_type",
                channelType,
                "edge_data_dir",
                dir.resolve("data").toString(),
                "edge_channel_transaction_capacity",
                1000,
                "edge_kafka_flume_batch_size",
                5000));
    StackException refused =
        assertThrows(
            StackException.class,
            () -> InProcessAgent.start("edge", properties, dir.resolve("agent")));
    assertTrue(
        refused.getMessage().contains("kafka0") && refused.getMessage().contains("kafka1"),
        refused.getMessage());
  }
}
