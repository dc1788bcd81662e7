package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.flafka.stack.AgentComponents.Kind;
import org.junit.jupiter.api.Test;

class AgentComponentsTest {
  private static final String TWO_AGENTS =
      String.join(
          "\n",
          "edge.sources = syslog  udp",
          "edge.channels = c1",
          "edge.sinks = kafka1 drop",
          "edge.sources.syslog.type = netcat",
          "edge.sources.udp.type = org.flafka.edge.source.SyslogSource",
          "edge.channels.c1.type = memory",
          "edge.sinks.kafka1.type = org.apache.flume.sink.kafka.KafkaSink",
          "edge.sinks.drop.type = null",
          "core.sources = k",
          "core.channels = c",
          "core.sinks = h",
          "core.sinkgroups = g1");

  @Test
  void readsDeclaredComponentsInOrderWithTheirTypes() {
    AgentComponents edge = AgentComponents.declaredIn("edge", TWO_AGENTS);
    assertEquals(List.of("syslog", "udp"), List.copyOf(edge.sources()));
    assertEquals(Set.of("c1"), edge.channels());
    assertEquals(List.of("kafka1", "drop"), List.copyOf(edge.sinks()));
    assertEquals("org.flafka.edge.source.SyslogSource", edge.type(Kind.SOURCE, "udp"));
    assertEquals("", AgentComponents.declaredIn("core", TWO_AGENTS).type(Kind.SINK, "h"));
  }

  @Test
  void expectsMetricsOnlyFromTypesThatReportThem() {
    assertEquals(
        List.of("SOURCE.udp", "CHANNEL.c1", "SINK.kafka1"),
        List.copyOf(AgentComponents.declaredIn("edge", TWO_AGENTS).metricNames()),
        "netcat sources and null sinks register no counters");
  }

  @Test
  void listsAgentNamesButNotSinkGroups() {
    assertEquals(Set.of("core", "edge"), AgentComponents.agentNames(TWO_AGENTS));
  }

  @Test
  void anUndeclaredAgentIsAnErrorNamingTheDeclaredOnes() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> AgentComponents.declaredIn("egde", TWO_AGENTS));
    assertEquals(
        "the configuration declares no agent 'egde' with a channel and a source or sink (no egde.channels,"
            + " or neither egde.sources nor egde.sinks); agents it declares: [core, edge]",
        e.getMessage());
  }

  @Test
  void describesComponentsForMessagesKeepingNameCase() {
    assertEquals(
        "source Syslog, sink k1",
        AgentComponents.describe(new LinkedHashSet<>(List.of("SOURCE.Syslog", "SINK.k1"))));
  }
}
