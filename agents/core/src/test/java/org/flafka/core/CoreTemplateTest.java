package org.flafka.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flume.Context;
import org.flafka.interceptors.BucketHeadersInterceptor;
import org.flafka.interceptors.BucketHeadersInterceptorConfig;
import org.flafka.interceptors.HostLaneInterceptor;
import org.flafka.interceptors.HostLaneInterceptorConfig;
import org.flafka.interceptors.SyslogInterceptorConfig;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.syslog.SyslogParserOptions;
import org.junit.jupiter.api.Test;

/**
 * core.properties.j2 wires this module's plugins with keys they accept: each interceptor the
 * template renders is configured here from the rendered lines, the way Flume hands them over (the
 * keys under {@code <source>.interceptors.<name>.}).
 */
class CoreTemplateTest {

  private static Properties render(Map<String, Object> variables) throws IOException {
    Properties properties = new Properties();
    properties.load(new StringReader(AgentTemplates.render(Tier.CORE, variables)));
    return properties;
  }

  /** A rendering with Kafka sources: the memory channel unless {@code variables} name another. */
  private static Properties renderWithSources(Map<String, Object> variables) throws IOException {
    Map<String, Object> withSources = new HashMap<>(variables);
    withSources.putIfAbsent("core_channel_type", "memory");
    return render(withSources);
  }

  /** The settings of channel {@code ch<n>}, as Flume passes them to it. */
  private static Map<String, String> channelSettings(Properties properties, int channel) {
    String prefix = "core.channels.ch" + channel + ".";
    Map<String, String> settings = new HashMap<>();
    for (String key : properties.stringPropertyNames()) {
      if (key.startsWith(prefix)) {
        settings.put(key.substring(prefix.length()), properties.getProperty(key));
      }
    }
    return settings;
  }

  @Test
  void theDefaultCoreIsKafkaChannelsDrainedByHdfsSinksWithoutSources() throws IOException {
    Properties properties =
        render(
            Map.of(
                "core_hdfs_sinks",
                3,
                "core_timestamp_max_past_hours",
                48,
                "core_kafka_max_poll_records",
                777));
    assertNull(properties.getProperty("core.sources"), "no sources");
    assertEquals("ch0 ch1 ch2", properties.getProperty("core.channels"));
    for (int n = 0; n < 3; n++) {
      assertEquals(
          KafkaRecordChannel.class.getName(),
          properties.getProperty("core.channels.ch" + n + ".type"));
      assertEquals("ch" + n, properties.getProperty("core.sinks.hdfs" + n + ".channel"));
      // The channel accepts every key the template gives it, the guard's window included
      Map<String, String> settings = channelSettings(properties, n);
      settings.remove("type");
      KafkaRecordChannelConfig config = new KafkaRecordChannelConfig("ch" + n, settings);
      assertEquals("syslog", config.topic());
      assertEquals(
          48 * 3_600_000L,
          new BucketHeadersInterceptorConfig(config.bucketSettings()).maxPastMillis());
      java.util.Properties consumer = config.consumerProperties("ch" + n);
      assertEquals("flafka-core", consumer.getProperty("group.id"));
      assertEquals("777", consumer.getProperty("max.poll.records"));
      assertTrue(consumer.containsKey("group.instance.id"), "static membership by default");
    }
    Properties named = render(Map.of("core_group_instance_prefix", "core-h1"));
    assertEquals(
        "core-h1-ch2", named.getProperty("core.channels.ch2.kafka.consumer.group.instance.id"));
  }

  /**
   * The settings of interceptor {@code name} of source {@code kafka<n>}, as Flume passes them to
   * its builder.
   */
  private static Context interceptorContext(Properties properties, int source, String name) {
    String prefix = "core.sources.kafka" + source + ".interceptors." + name + ".";
    Map<String, String> settings = new HashMap<>();
    for (String key : properties.stringPropertyNames()) {
      if (key.startsWith(prefix)) {
        settings.put(key.substring(prefix.length()), properties.getProperty(key));
      }
    }
    return new Context(settings);
  }

  @Test
  void bucketGuardRunsFirstOnEverySourceWithTheTemplateWindows() throws IOException {
    Properties properties =
        renderWithSources(
            Map.of(
                "core_kafka_sources",
                3,
                "core_timestamp_max_past_hours",
                48,
                "core_timestamp_max_future_hours",
                2));
    for (int n = 0; n < 3; n++) {
      String source = "core.sources.kafka" + n + ".interceptors";
      assertEquals("bucket fanout", properties.getProperty(source));
      assertEquals(
          BucketHeadersInterceptor.Builder.class.getName(),
          properties.getProperty(source + ".bucket.type"));
      BucketHeadersInterceptorConfig config =
          new BucketHeadersInterceptorConfig(
              interceptorContext(properties, n, "bucket").getParameters());
      assertEquals(48 * 3_600_000L, config.maxPastMillis());
      assertEquals(2 * 3_600_000L, config.maxFutureMillis());
    }
    assertEquals(
        "bucket",
        renderWithSources(Map.of("core_hdfs_sinks", 1))
            .getProperty("core.sources.kafka0.interceptors"),
        "one sink: no fan-out, the guard alone");
  }

  @Test
  void templateWindowDefaultsAreTheGuardsOwn() throws IOException {
    BucketHeadersInterceptorConfig rendered =
        new BucketHeadersInterceptorConfig(
            interceptorContext(renderWithSources(Map.of()), 0, "bucket").getParameters());
    BucketHeadersInterceptorConfig own = new BucketHeadersInterceptorConfig(Map.of());
    assertEquals(own.maxPastMillis(), rendered.maxPastMillis());
    assertEquals(own.maxFutureMillis(), rendered.maxFutureMillis());
  }

  @Test
  void everySinkRetriesAFailedCloseAfterTheTemplateInterval() throws IOException {
    Properties properties =
        renderWithSources(Map.of("core_hdfs_sinks", 2, "core_hdfs_retry_interval", 7));
    assertEquals("7", properties.getProperty("core.sinks.hdfs0.hdfs.retryInterval"));
    assertEquals("7", properties.getProperty("core.sinks.hdfs1.hdfs.retryInterval"));
    assertEquals(
        "30", renderWithSources(Map.of()).getProperty("core.sinks.hdfs3.hdfs.retryInterval"));
  }

  @Test
  void fanoutSpreadsByHostByDefaultAndByBatchOnRequest() throws IOException {
    Properties byHost = renderWithSources(Map.of("core_kafka_sources", 2, "core_hdfs_sinks", 3));
    for (int n = 0; n < 2; n++) {
      String fanout = "core.sources.kafka" + n + ".interceptors.fanout";
      assertEquals(
          HostLaneInterceptor.Builder.class.getName(), byHost.getProperty(fanout + ".type"));
      HostLaneInterceptorConfig config =
          new HostLaneInterceptorConfig(interceptorContext(byHost, n, "fanout").getParameters());
      assertEquals(3, config.lanes());
      assertEquals(
          byHost.getProperty("core.sources.kafka" + n + ".selector.header"), config.header());
    }
    Properties byBatch = renderWithSources(Map.of("core_hdfs_sinks", 3, "core_fanout", "batch"));
    assertEquals(
        org.flafka.interceptors.FanOutInterceptor.Builder.class.getName(),
        byBatch.getProperty("core.sources.kafka0.interceptors.fanout.type"));
    assertEquals("3", byBatch.getProperty("core.sources.kafka0.interceptors.fanout.lanes"));
  }

  @Test
  void staticMembershipIdIsUniquePerSourceWhenAPrefixIsSetAndAbsentOtherwise() throws IOException {
    Properties properties =
        renderWithSources(Map.of("core_kafka_sources", 2, "core_group_instance_prefix", "core-h1"));
    assertEquals(
        "core-h1-kafka0",
        properties.getProperty("core.sources.kafka0.kafka.consumer.group.instance.id"));
    assertEquals(
        "core-h1-kafka1",
        properties.getProperty("core.sources.kafka1.kafka.consumer.group.instance.id"));
    assertNull(
        renderWithSources(Map.of())
            .getProperty("core.sources.kafka0.kafka.consumer.group.instance.id"));
  }

  @Test
  void avroFilesGetTheRejectedTimestampAcrossKafka() throws IOException {
    // The guard and the edge keep a replaced time there; the Avro format can only keep what the
    // source maps
    Map<String, Object> avro = Map.of("core_hdfs_format", "avro");
    assertEquals("all", renderWithSources(avro).getProperty("core.sources.kafka1.recordHeaders"));
    assertEquals("all", render(avro).getProperty("core.channels.ch1.recordHeaders"));
    assertTrue(
        new KafkaRecordChannelConfig("ch1", channelSettings(render(avro), 1))
            .reading()
            .recordHeaders()
            .contains("timestamp_rejected"));
    assertTrue(
        new KafkaRecordSourceConfig(sourceSettings(renderWithSources(avro), 1))
            .reading()
            .recordHeaders()
            .contains("timestamp_rejected"));
    assertEquals(
        "timestamp_rejected",
        renderWithSources(Map.of("core_source_impl", "stock"))
            .getProperty("core.sources.kafka1.header.timestamp_rejected"));
  }

  @Test
  void textFilesReadOnlyTheHeadersTheLayoutAndItsGuardRead() throws IOException {
    // a text file holds the body alone: site, id and the rest would be decoded for nothing
    List<String> bucket = List.of("timestamp", "host", "received", "peer");
    assertEquals(
        bucket,
        new KafkaRecordChannelConfig("ch1", channelSettings(render(Map.of()), 1))
            .reading()
            .recordHeaders());
    assertEquals(
        bucket,
        new KafkaRecordSourceConfig(sourceSettings(renderWithSources(Map.of()), 1))
            .reading()
            .recordHeaders());
  }

  /** Leniency switches and zone abbreviations off their defaults. */
  private static final Map<String, Object> PARSER_OPTIONS =
      Map.of(
          "permit.missing.pri",
          "false",
          "detect.cisco.asa",
          "false",
          "detect.year.in.timestamp",
          "false",
          "timezone.abbreviations",
          "IST=+01:00,XYZ=-03:30");

  @Test
  void theAvroCoreDerivesWithTheEdgesLeniencySwitchesAndZoneAbbreviations() throws IOException {
    for (Map<String, Object> options : List.of(Map.<String, Object>of(), PARSER_OPTIONS)) {
      Map<String, Object> variables = Map.of("syslog_parser_options", options);
      Properties edge = new Properties();
      edge.load(new StringReader(AgentTemplates.render(Tier.EDGE, variables)));
      Map<String, String> interceptor = new HashMap<>();
      String prefix = "edge.sources.syslog_tcp.interceptors.syslog.";
      for (String key : edge.stringPropertyNames()) {
        if (key.startsWith(prefix)) {
          interceptor.put(key.substring(prefix.length()), edge.getProperty(key));
        }
      }
      SyslogParserOptions edgeOptions = new SyslogInterceptorConfig(interceptor).parserOptions();

      Map<String, Object> avro = new HashMap<>(variables);
      avro.put("core_hdfs_format", "avro");
      // the default core's Kafka channels, and a memory-channel core's Kafka sources
      Properties channels = render(avro);
      Properties sources = renderWithSources(avro);
      List<SyslogParserOptions> coreOptions = new ArrayList<>();
      for (int n = 0; n < 2; n++) {
        coreOptions.add(
            new KafkaRecordChannelConfig("ch" + n, channelSettings(channels, n))
                .reading()
                .deriveWith());
        coreOptions.add(
            new KafkaRecordSourceConfig(sourceSettings(sources, n)).reading().deriveWith());
      }
      for (SyslogParserOptions core : coreOptions) {
        assertEquals(edgeOptions.enabledSwitches(), core.enabledSwitches(), "" + options);
        assertEquals(edgeOptions.zoneAbbreviations(), core.zoneAbbreviations(), "" + options);
      }
      // the rendered options reached both tiers: off their defaults exactly when set
      assertEquals(
          options.isEmpty(),
          edgeOptions.enabledSwitches().equals(SyslogParserOptions.defaults().enabledSwitches()));
    }
  }

  @Test
  void theTextCoreParsesNothing() throws IOException {
    assertNull(
        new KafkaRecordSourceConfig(
                sourceSettings(
                    renderWithSources(Map.of("syslog_parser_options", PARSER_OPTIONS)), 0))
            .reading()
            .deriveWith());
    assertNull(
        new KafkaRecordChannelConfig(
                "ch0", channelSettings(render(Map.of("syslog_parser_options", PARSER_OPTIONS)), 0))
            .reading()
            .deriveWith());
  }

  /** The settings of source {@code kafka<n>}, as Flume passes them to the source. */
  private static Map<String, String> sourceSettings(Properties properties, int source) {
    String prefix = "core.sources.kafka" + source + ".";
    Map<String, String> settings = new HashMap<>();
    for (String key : properties.stringPropertyNames()) {
      if (key.startsWith(prefix)) {
        settings.put(key.substring(prefix.length()), properties.getProperty(key));
      }
    }
    return settings;
  }

  @Test
  void hdfsKerberosVariablesReachEveryHdfsSinkAndOurSinkAcceptsThem() throws IOException {
    Properties properties =
        render(
            Map.of(
                "core_hdfs_sinks", 2,
                "hdfs_kerberos_principal", "flafka-core/_HOST@EXAMPLE.COM",
                "hdfs_kerberos_keytab", "/etc/flafka/core.keytab",
                "hdfs_namenode_principal", "hdfs/_HOST@EXAMPLE.COM",
                "hdfs_data_transfer_protection", "privacy"));
    for (int n = 0; n < 2; n++) {
      String prefix = "core.sinks.hdfs" + n + ".";
      Map<String, String> settings = new HashMap<>();
      for (String key : properties.stringPropertyNames()) {
        if (key.startsWith(prefix)
            && !key.equals(prefix + "type")
            && !key.equals(prefix + "channel")) {
          settings.put(key.substring(prefix.length()), properties.getProperty(key));
        }
      }
      HdfsBucketSinkConfig config = new HdfsBucketSinkConfig("hdfs" + n, settings);
      assertTrue(config.kerberos());
      assertEquals("/etc/flafka/core.keytab", config.kerberosKeytab());
      assertEquals("hdfs/_HOST@EXAMPLE.COM", config.namenodePrincipal());
      assertEquals("privacy", config.dataTransferProtection());
    }
  }

  @Test
  void flumesHdfsSinkGetsThePrincipalAndKeytabUnderItsOwnKeys() throws IOException {
    Properties properties =
        render(
            Map.of(
                "core_sink_impl", "stock",
                "hdfs_kerberos_principal", "flafka-core/_HOST@EXAMPLE.COM"));
    assertEquals("hdfs", properties.getProperty("core.sinks.hdfs0.type"));
    assertEquals(
        "flafka-core/_HOST@EXAMPLE.COM",
        properties.getProperty("core.sinks.hdfs0.hdfs.kerberosPrincipal"));
    assertEquals(
        "/etc/flafka/hdfs.keytab", properties.getProperty("core.sinks.hdfs0.hdfs.kerberosKeytab"));
  }

  @Test
  void withoutAPrincipalNoKerberosKeyIsRendered() throws IOException {
    Properties properties = render(Map.of());
    for (String key : properties.stringPropertyNames()) {
      assertFalse(key.contains("kerberos") || key.contains("dataTransfer"), key);
    }
  }
}
