package org.flafka.stack;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How the runners tell that Flume started an agent whole. Flume 1.11 reports a dropped component only in its log, with
 * the messages below (flume-ng-configuration FlumeConfiguration, flume-ng-node AbstractConfigurationProvider).
 */
final class AgentStartup {
    /** Log lines by which Flume 1.11 says it dropped a component or the whole agent. */
    private static final List<Pattern> DROPPED = List.of(
            Pattern.compile("Could not configure (channel|source|sink|sink group)\\s+\\S+ due to: .*"),
            Pattern.compile("(Channel|Source|Sink) \\S+ has been removed due to an error during configuration.*"),
            Pattern.compile("(Source|Sink) \\S+ is not connected to a channel.*"),
            Pattern.compile("Channel \\S+ has no components connected and has been removed.*"),
            Pattern.compile("Configuration empty for: \\S+.*"),
            Pattern.compile("no context for sink.*"),
            Pattern.compile("Agent configuration invalid for agent .*"),
            Pattern.compile("No configuration found for this host.*"),
            Pattern.compile("Failed to instantiate component.*"),
            Pattern.compile("A fatal error occurred while running.*"));

    /** Flume's metrics server logs this when it cannot bind its port; the agent then runs without metrics. */
    static final String METRICS_SERVER_FAILED = "Error starting Jetty";

    private AgentStartup() {
    }

    /**
     * The first log line in {@code log} saying Flume dropped a component, with the line after it (the exception
     * that caused it, when Flume logs one), or empty.
     */
    static Optional<String> droppedComponent(String log) {
        List<String> lines = log.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            for (Pattern pattern : DROPPED) {
                var matcher = pattern.matcher(lines.get(i));
                if (matcher.find()) {
                    String found = matcher.group();
                    if (i + 1 < lines.size() && !lines.get(i + 1).isBlank() && !lines.get(i + 1).startsWith("\tat ")
                            && !lines.get(i + 1).matches("^\\d{4}-\\d\\d-\\d\\d.*")) {
                        found += " / " + lines.get(i + 1).strip();
                    }
                    return Optional.of(found);
                }
            }
        }
        return Optional.empty();
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
