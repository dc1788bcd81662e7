package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flafka.interceptors.BucketHeadersCounterMBean;
import org.flafka.interceptors.BucketHeadersInterceptorConfig;
import org.flafka.interceptors.HostLaneInterceptorConfig;
import org.junit.jupiter.api.Test;

/**
 * docs/reference/core-plugins.md shows the plugins' keys and counters as the code declares them, so
 * the two cannot drift.
 */
class CoreDocsTest {

  private static String coreDoc() throws IOException {
    // Tests run in agents/core
    return Files.readString(
        Path.of("..", "..", "docs", "reference", "core-plugins.md"), StandardCharsets.UTF_8);
  }

  @Test
  void keyTablesAreTheDeclaredOnes() throws IOException {
    String doc = coreDoc();
    assertTrue(
        doc.contains(BucketHeadersInterceptorConfig.DEFINITION.keyTable()),
        "docs/reference/core-plugins.md must contain BucketHeadersInterceptorConfig's table, regenerate it "
            + "with its main:\n"
            + BucketHeadersInterceptorConfig.DEFINITION.keyTable());
    assertTrue(
        doc.contains(KafkaRecordChannelConfig.DEFINITION.keyTable()),
        "docs/reference/core-plugins.md must contain KafkaRecordChannelConfig's table, regenerate it "
            + "with its main:\n"
            + KafkaRecordChannelConfig.DEFINITION.keyTable());
    assertTrue(
        doc.contains(HdfsBucketSinkConfig.DEFINITION.keyTable()),
        "docs/reference/core-plugins.md must contain HdfsBucketSinkConfig's table, regenerate it with "
            + "its main:\n"
            + HdfsBucketSinkConfig.DEFINITION.keyTable());
    assertTrue(
        doc.contains(HostLaneInterceptorConfig.DEFINITION.keyTable()),
        "docs/reference/core-plugins.md must contain HostLaneInterceptorConfig's table, regenerate it with "
            + "its main:\n"
            + HostLaneInterceptorConfig.DEFINITION.keyTable());
  }

  @Test
  void everyGuardCounterIsDocumented() throws IOException {
    String doc = coreDoc();
    for (Method getter : BucketHeadersCounterMBean.class.getMethods()) {
      String attribute = getter.getName().substring("get".length());
      if (attribute.endsWith("Count")) {
        assertTrue(
            doc.contains("`" + attribute + "`"),
            attribute + " is not in docs/reference/core-plugins.md");
      }
    }
  }
}
