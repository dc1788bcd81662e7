package org.flafka.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.flafka.stack.SecurePipeline;

/**
 * The secure stack of {@code flafka bench edge|core --secure}: the {@link SecurePipeline} the sweep
 * uses too, in the bench's JVM (the KDC is one per JVM), its own clients logging in as {@code
 * flafka-bench}. The agents stay processes of their own, so the CPU the bench reports per agent is
 * measured as on the plain stack; the broker's and HDFS's share the bench's JVM and are not
 * reported apart.
 */
final class SecureStack {
  /** What error messages name where the plain stack names the broker's or HDFS's log. */
  static final String LOG = "the bench's own output (the secure stack runs in its JVM)";

  /** The core report's line on the stack. */
  static final String CORE_REPORT_LINE =
      "stack: secure (Kafka SASL_SSL with Kerberos GSSAPI; HDFS with Kerberos and data transfer"
          + " protection privacy), broker and HDFS in the bench's JVM, so their CPU is not"
          + " reported apart";

  /** The edge report's line on the stack. */
  static final String EDGE_REPORT_LINE =
      "stack: secure (Kafka SASL_SSL with Kerberos GSSAPI), the broker in the bench's JVM beside"
          + " the generator, so neither's CPU is reported apart";

  private SecureStack() {}

  /**
   * Starts the secure stack in {@code workDir}/secure, HDFS only {@code withHdfs} (the core's
   * bench), and says so on {@code progress}.
   */
  static SecurePipeline start(Path workDir, boolean withHdfs, Consumer<String> progress) {
    Path dir = workDir.resolve("secure");
    progress.accept(
        "starting a secure Kafka (KRaft, SASL_SSL with Kerberos)"
            + (withHdfs ? " and HDFS (MiniDFSCluster with Kerberos)" : "")
            + " in this JVM, in "
            + dir);
    SecurePipeline stack =
        withHdfs
            ? SecurePipeline.start(dir, "bench")
            : SecurePipeline.startWithoutHdfs(dir, "bench");
    progress.accept(stack.describe());
    return stack;
  }

  /**
   * The template variables of a trial's agent: {@code --set}, then the stack's security variables,
   * which win.
   */
  static Map<String, Object> variables(
      Map<String, Object> oursVariables, Map<String, Object> security) {
    Map<String, Object> all = new LinkedHashMap<>(oursVariables);
    all.putAll(security);
    return all;
  }
}
