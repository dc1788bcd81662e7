package org.flafka.stack;

import java.util.ArrayList;
import java.util.List;

/**
 * The classpath the stack's own process mains run on: this JVM's, which holds the stack module and
 * its dependencies.
 */
final class StackClasspath {
  /**
   * A classpath resource: Log4j looks a configurationFile up on the classpath when no such file
   * exists.
   */
  private static final String PROCESS_LOG_CONFIG = "org/flafka/stack/process-log4j2.xml";

  private StackClasspath() {}

  /**
   * {@code java.class.path} of this JVM. Under Maven Surefire this is the real test classpath
   * (Surefire sets it even when it boots through a manifest-only jar); under bin/flafka it is the
   * sweep's runtime classpath.
   */
  static String current() {
    return System.getProperty("java.class.path");
  }

  /** {@code jvmOptions} plus the logging configuration for the stack's own processes. */
  static List<String> withProcessLogging(List<String> jvmOptions) {
    List<String> options = new ArrayList<>(jvmOptions);
    options.add("-Dlog4j2.configurationFile=" + PROCESS_LOG_CONFIG);
    return options;
  }
}
