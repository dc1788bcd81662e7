package org.flafka.edge.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.flafka.contract.Headers;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The record headers the edge template writes ({@code kafka_record_facts}) are the contract's named
 * sets: {@link Headers#CARRIED} by default, {@link Headers#ALL} one setting away; Flume's own sink,
 * which takes a list, gets the contract's list of the same name, in the same order. The core reads
 * every fact, whichever set an edge writes.
 */
class TemplateRecordHeadersTest {

  @Test
  void theDefaultIsWhatTheBodyCannotGiveBack() {
    assertEquals(
        Headers.CARRIED_NAME, AgentTemplates.defaults(Tier.EDGE).get("kafka_record_facts"));
  }

  @ParameterizedTest
  @ValueSource(strings = {Headers.CARRIED_NAME, Headers.ALL_NAME})
  void ourSinkAndSourceTakeTheNameAndFlumesTheContractsList(String facts) throws IOException {
    Properties ours =
        properties(AgentTemplates.render(Tier.EDGE, Map.of("kafka_record_facts", facts)));
    assertEquals(facts, ours.getProperty("edge.sinks.kafka0.recordHeaders"));
    Properties stockSink =
        properties(
            AgentTemplates.render(
                Tier.EDGE, Map.of("kafka_record_facts", facts, "edge_sink_impl", "stock")));
    assertEquals(Headers.named(facts), listed(stockSink, "edge.sinks.kafka0.header."));
  }

  @Test
  void withCarriedTheSyslogInterceptorSetsOnlyTheHeadersThatGoOnTheWire() throws IOException {
    String key = "edge.sources.syslog_tcp.interceptors.syslog.headers";
    assertEquals(
        "timestamp,host,received,site",
        properties(AgentTemplates.render(Tier.EDGE, Map.of())).getProperty(key));
    // with all, and in Flume's Avro envelope (which holds every header), it sets every header it
    // can (its default)
    assertEquals(
        null,
        properties(AgentTemplates.render(Tier.EDGE, Map.of("kafka_record_facts", "all")))
            .getProperty(key));
    assertEquals(
        null,
        properties(AgentTemplates.render(Tier.EDGE, Map.of("kafka_flume_event_format", true)))
            .getProperty(key));
  }

  @Test
  void theCoreReadsEveryFactWhicheverTheEdgesCarryForAvroAndWhatTheLayoutReadsForText()
      throws IOException {
    // the default core's Kafka channels, and the Kafka sources of a memory- or file-channel core
    assertEquals(
        Headers.ALL_NAME,
        properties(AgentTemplates.render(Tier.CORE, Map.of("core_hdfs_format", "avro")))
            .getProperty("core.channels.ch0.recordHeaders"));
    assertEquals(
        Headers.ALL_NAME,
        properties(
                AgentTemplates.render(
                    Tier.CORE, Map.of("core_channel_type", "memory", "core_hdfs_format", "avro")))
            .getProperty("core.sources.kafka0.recordHeaders"));
    // text files hold the body alone: the headers the dt=/host= layout and its guard read
    assertEquals(
        Headers.BUCKET_NAME,
        properties(AgentTemplates.render(Tier.CORE, Map.of()))
            .getProperty("core.channels.ch0.recordHeaders"));
    assertEquals(
        Headers.BUCKET_NAME,
        properties(AgentTemplates.render(Tier.CORE, Map.of("core_channel_type", "memory")))
            .getProperty("core.sources.kafka0.recordHeaders"));
    Properties stockSource =
        properties(
            AgentTemplates.render(
                Tier.CORE, Map.of("core_source_impl", "stock", "core_channel_type", "file")));
    assertEquals(Headers.ALL, listed(stockSource, "core.sources.kafka0.header."));
  }

  /** The header names mapped under {@code prefix}, in the rendered file's order. */
  private static List<String> listed(Properties rendered, String prefix) {
    List<String> names = new ArrayList<>();
    for (String name : Headers.ALL) {
      if (name.equals(rendered.getProperty(prefix + name))) {
        names.add(name);
      }
    }
    return names;
  }

  private static Properties properties(String text) throws IOException {
    Properties properties = new Properties();
    properties.load(new StringReader(text));
    return properties;
  }
}
