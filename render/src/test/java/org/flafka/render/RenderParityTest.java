package org.flafka.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Renders each template with several variable sets through Jinjava (flafka render) and through
 * Python Jinja2 set up as Ansible's template module ({@code scripts/render.py}, fed the source
 * files under agents/), and requires byte-identical output. Needs python3 with requirements.txt
 * installed (scripts/setup).
 */
class RenderParityTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path RENDER_SCRIPT = ROOT.resolve("scripts/render.py");

  @TempDir Path work;

  static Stream<Arguments> variableSets() {
    return Stream.of(
        Arguments.of(Tier.EDGE, Map.of()),
        Arguments.of(
            Tier.EDGE,
            Map.of(
                "edge_source_impl",
                "stock",
                "edge_sink_impl",
                "stock",
                "edge_listeners",
                List.of("udp", "tcp"),
                "edge_channel_type",
                "file",
                "edge_kafka_sinks",
                1,
                "edge_partitioner",
                "stripe",
                "site",
                "paris-2",
                "edge_extra_properties",
                Map.of(
                    "sinks.kafka0.kafka.producer.buffer.memory",
                    "67108864",
                    "channels.ch0.keep-alive",
                    "5"))),
        Arguments.of(
            Tier.EDGE,
            Map.of(
                "edge_channel_type",
                "kafka",
                "kafka_flume_event_format",
                true,
                "edge_kafka_sinks",
                4,
                "edge_listeners",
                List.of("tls"),
                "edge_partitioner",
                "host-affinity")),
        Arguments.of(
            Tier.EDGE,
            Map.of(
                "syslog_parser_options",
                Map.of("permit.missing.pri", "false", "timezone.abbreviations", "IST=+01:00"),
                "edge_sink_impl",
                "stock")),
        Arguments.of(Tier.CORE, Map.of()),
        Arguments.of(
            Tier.CORE,
            Map.of(
                "core_channel_type",
                "kafka",
                "kafka_flume_event_format",
                true,
                "core_hdfs_sinks",
                2,
                "core_group_instance_prefix",
                "core-lyon-1")),
        Arguments.of(
            Tier.CORE,
            Map.of(
                "core_hdfs_format",
                "avro",
                "core_hdfs_sinks",
                1,
                "syslog_parser_options",
                Map.of("permit.missing.pri", "false", "timezone.abbreviations", "IST=+01:00"))),
        Arguments.of(
            Tier.CORE,
            Map.of(
                "core_hdfs_format",
                "avro",
                "core_channel_type",
                "file",
                "core_kafka_sources",
                3,
                "core_hdfs_sinks",
                1,
                "kafka_flume_event_format",
                true)),
        Arguments.of(
            Tier.CORE,
            Map.of(
                "core_hdfs_codec",
                "none",
                "core_channel_type",
                "memory",
                "core_hdfs_sinks",
                6,
                "core_fanout",
                "batch",
                "core_group_instance_prefix",
                "core-paris-2",
                "core_extra_properties",
                Map.of("sinks.hdfs0.hdfs.callTimeout", "60000"))),
        // Kafka security: SCRAM with a trust store on both of the edge's clients (Flume's Kafka
        // channel has a consumer too), GSSAPI with a client certificate on the core
        Arguments.of(
            Tier.EDGE,
            Map.of(
                "kafka_security_protocol",
                "SASL_SSL",
                "kafka_sasl_mechanism",
                "SCRAM-SHA-512",
                "kafka_sasl_username",
                "edge-paris",
                "kafka_ssl_truststore_location",
                "/etc/flafka/truststore.p12",
                "edge_channel_type",
                "kafka",
                "edge_channel_impl",
                "stock")),
        Arguments.of(
            Tier.EDGE,
            Map.of(
                "kafka_security_protocol",
                "SSL",
                "kafka_ssl_truststore_location",
                "/etc/flafka/ca.pem",
                "kafka_ssl_truststore_type",
                "PEM",
                "kafka_ssl_keystore_location",
                "/etc/flafka/edge.p12")),
        Arguments.of(
            Tier.CORE,
            Map.of(
                "kafka_security_protocol",
                "SASL_SSL",
                "kafka_kerberos_principal",
                "flafka-core/core1.example.com@EXAMPLE.COM",
                "kafka_kerberos_keytab",
                "/etc/flafka/core.keytab",
                "kafka_ssl_truststore_location",
                "/etc/flafka/truststore.jks",
                "kafka_ssl_truststore_type",
                "JKS")),
        Arguments.of(
            Tier.CORE,
            Map.of(
                "hdfs_kerberos_principal",
                "flafka-core/_HOST@EXAMPLE.COM",
                "hdfs_kerberos_keytab",
                "/etc/flafka/hdfs.keytab",
                "hdfs_namenode_principal",
                "hdfs/_HOST@EXAMPLE.COM",
                "hdfs_data_transfer_protection",
                "privacy",
                "core_hdfs_sinks",
                2)),
        Arguments.of(
            Tier.CORE,
            Map.of(
                "hdfs_kerberos_principal",
                "flafka-core/_HOST@EXAMPLE.COM",
                "core_sink_impl",
                "stock")));
  }

  @ParameterizedTest
  @MethodSource("variableSets")
  void jinjavaAndPythonJinja2RenderTheSameBytes(Tier tier, Map<String, Object> variables)
      throws Exception {
    String jinjava = AgentTemplates.render(tier, variables);
    Path varsFile = work.resolve("vars.json");
    // The coerced values: what the template sees in Java, and what Ansible would see from typed
    // YAML.
    Map<String, Object> overrides = new LinkedHashMap<>(AgentTemplates.resolve(tier, variables));
    overrides.keySet().retainAll(variables.keySet());
    new ObjectMapper().writeValue(varsFile.toFile(), overrides);

    PythonResult python = renderWithPython(templateFile(tier), defaultsFile(tier), varsFile);

    assertEquals(0, python.exitCode, python.stderr);
    assertEquals(jinjava, python.stdout);
  }

  @ParameterizedTest
  @EnumSource(Tier.class)
  void packagedTemplatesAreTheSourceFiles(Tier tier) throws IOException {
    assertEquals(Files.readString(templateFile(tier)), AgentTemplates.templateText(tier));
    assertEquals(Files.readString(defaultsFile(tier)), AgentTemplates.defaultsText(tier));
  }

  @Test
  void pythonSideAlsoRejectsUndefinedVariables() throws Exception {
    Path template = work.resolve("t.j2");
    Files.writeString(template, "a = {{ defined }}\nb = {{ not_defined }}\n");
    Path defaults = work.resolve("d.yml");
    Files.writeString(defaults, "defined: x\n");

    PythonResult python = renderWithPython(template, defaults, null);

    assertNotEquals(0, python.exitCode);
    assertTrue(python.stderr.contains("'not_defined' is undefined"), python.stderr);
  }

  private static Path templateFile(Tier tier) {
    return ROOT.resolve("agents/" + tier.id() + "/templates/" + tier.id() + ".properties.j2");
  }

  private static Path defaultsFile(Tier tier) {
    return ROOT.resolve("agents/" + tier.id() + "/templates/" + tier.id() + "-defaults.yml");
  }

  private record PythonResult(int exitCode, String stdout, String stderr) {}

  private PythonResult renderWithPython(Path template, Path defaults, Path vars) throws Exception {
    Path out = work.resolve("python.out");
    Path err = work.resolve("python.err");
    ProcessBuilder builder =
        vars == null
            ? new ProcessBuilder(
                "python3", RENDER_SCRIPT.toString(), template.toString(), defaults.toString())
            : new ProcessBuilder(
                "python3",
                RENDER_SCRIPT.toString(),
                template.toString(),
                defaults.toString(),
                vars.toString());
    Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("scripts/render.py did not finish within 60 s");
    }
    return new PythonResult(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
