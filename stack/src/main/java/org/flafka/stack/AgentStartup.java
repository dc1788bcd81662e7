package org.flafka.stack;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the runners tell that Flume started an agent whole. Flume 1.11 reports a dropped component
 * only in its log, with the messages below (flume-ng-configuration FlumeConfiguration,
 * flume-ng-node AbstractConfigurationProvider).
 */
final class AgentStartup {
  /** Log lines by which Flume 1.11 says it dropped a component or the whole agent. */
  private static final List<Pattern> DROPPED =
      List.of(
          Pattern.compile(
              "Could not configure (channel|source|sink|sink group)\\s+\\S+ due to: .*"),
          Pattern.compile(
              "(Channel|Source|Sink) \\S+ has been removed due to an error during configuration.*"),
          Pattern.compile("(Source|Sink) \\S+ is not connected to a channel.*"),
          Pattern.compile("Channel \\S+ has no components connected and has been removed.*"),
          Pattern.compile("Configuration empty for: \\S+.*"),
          Pattern.compile("no context for sink.*"),
          Pattern.compile("Agent configuration invalid for agent .*"),
          Pattern.compile("No configuration found for this host.*"),
          Pattern.compile("Failed to instantiate component.*"),
          Pattern.compile("A fatal error occurred while running.*"));

  /** The first line of a stack trace: an exception class name, a colon or the end. */
  private static final Pattern EXCEPTION =
      Pattern.compile("[\\w$]+(\\.[\\w$]+)+(Exception|Error|Throwable)\\b");

  /** The start of a log record in the agents' log4j2.xml pattern (ISO 8601 date). */
  private static final Pattern LOG_RECORD = Pattern.compile("\\d{4}-\\d\\d-\\d\\d");

  /**
   * Flume's metrics server logs this when it cannot bind its port; the agent then runs without
   * metrics.
   */
  static final String METRICS_SERVER_FAILED = "Error starting Jetty";

  private AgentStartup() {}

  /**
   * The first log line in {@code log} saying Flume dropped a component, followed by the exception
   * Flume logged with it and that exception's root cause, when there are any ("Interceptor.Builder
   * not found." only makes sense with the ClassNotFoundException under it), or empty.
   */
  static Optional<String> droppedComponent(String log) {
    List<String> lines = log.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      for (Pattern pattern : DROPPED) {
        Matcher matcher = pattern.matcher(lines.get(i));
        if (matcher.find()) {
          return Optional.of(matcher.group() + exceptionAfter(lines, i + 1));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * " / exception / root cause" from the stack trace starting at {@code start}, or "" if no trace
   * follows.
   */
  private static String exceptionAfter(List<String> lines, int start) {
    if (start >= lines.size() || !EXCEPTION.matcher(lines.get(start)).lookingAt()) {
      return "";
    }
    String exception = lines.get(start).strip();
    String rootCause = null;
    for (int i = start + 1;
        i < lines.size() && !LOG_RECORD.matcher(lines.get(i)).lookingAt();
        i++) {
      if (lines.get(i).startsWith("Caused by: ")) {
        rootCause = lines.get(i).substring("Caused by: ".length()).strip();
      }
    }
    return " / " + exception + (rootCause == null ? "" : " / " + rootCause);
  }

  /** Metric groups of {@code components} that {@code metrics} does not show started. */
  static Set<String> notStarted(AgentComponents components, AgentMetrics metrics) {
    Set<String> missing = new LinkedHashSet<>();
    for (String name : components.metricNames()) {
      if (!metrics.isStarted(name)) {
        missing.add(name);
      }
    }
    return missing;
  }
}
