package org.flafka.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Each rule on a small agent, broken and fixed: the finding's exact text, and silence once fixed.
 */
class RulesTest {

  /** A valid agent: memory channel, batching source, Kafka sink carrying headers. */
  private static final String GOOD =
      """
            a.sources = r
            a.channels = c
            a.sinks = k
            a.sources.r.type = multiport_syslogtcp
            a.sources.r.ports = 514
            a.sources.r.batchSize = 500
            a.sources.r.eventSize = 2500
            a.sources.r.channels = c
            a.channels.c.type = memory
            a.channels.c.capacity = 10000
            a.channels.c.transactionCapacity = 1000
            a.sinks.k.type = org.apache.flume.sink.kafka.KafkaSink
            a.sinks.k.channel = c
            a.sinks.k.kafka.bootstrap.servers = localhost:9092
            a.sinks.k.kafka.topic = syslog
            a.sinks.k.flumeBatchSize = 1000
            a.sinks.k.allowTopicOverride = false
            a.sinks.k.header.host = host
            """;

  private static List<Finding> lint(String text, OptionalInt partitions) {
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(text));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return Linter.lint(properties, partitions);
  }

  private static List<String> lines(String text) {
    return lint(text, OptionalInt.empty()).stream().map(Finding::toString).toList();
  }

  @Test
  void goodAgentHasNoFindings() {
    assertEquals(List.of(), lines(GOOD));
  }

  @Test
  void transactionCapacityBelowABatchSize() {
    assertEquals(
        List.of(
            "ERROR [transaction-capacity] a.channels.c.transactionCapacity: transactionCapacity 1000"
                + " is below the batch size 2000 of sink k (flumeBatchSize), so its transactions fail."
                + " Fix: set a.channels.c.transactionCapacity to at least 2000, or lower"
                + " a.sinks.k.flumeBatchSize."),
        lines(GOOD + "a.sinks.k.flumeBatchSize = 2000\n"));
  }

  @Test
  void transactionCapacityCountsFlumeDefaults() {
    // No transactionCapacity: the memory channel's default is 100, below the source's 500.
    List<String> findings = lines(GOOD.replace("a.channels.c.transactionCapacity = 1000\n", ""));
    assertEquals(2, findings.size(), findings.toString());
    assertTrue(
        findings
            .get(0)
            .contains(
                "transactionCapacity 100 is below the batch size 500 of source r" + " (batchSize)"),
        findings.get(0));
    assertTrue(findings.get(1).contains("below the batch size 1000 of sink k"), findings.get(1));
  }

  @Test
  void theEdgesMemoryChannelHasFlumesMemoryChannelDefaults() {
    List<String> findings =
        lines(
            GOOD.replace("a.channels.c.transactionCapacity = 1000\n", "")
                .replace(
                    "a.channels.c.type = memory",
                    "a.channels.c.type = org.flafka.edge.channel.BatchMemoryChannel"));
    assertEquals(2, findings.size(), findings.toString());
    assertTrue(
        findings.get(0).contains("transactionCapacity 100 is below the batch size 500 of source r"),
        findings.get(0));
  }

  @Test
  void transactionCapacityAboveCapacity() {
    assertEquals(
        List.of(
            "ERROR [transaction-capacity] a.channels.c.transactionCapacity: transactionCapacity 1000"
                + " exceeds capacity 500, which Flume rejects. Fix: set a.channels.c.capacity to at least"
                + " 1000."),
        lines(GOOD + "a.channels.c.capacity = 500\n"));
  }

  @Test
  void nonNumericValueIsReported() {
    assertEquals(
        List.of(
            "ERROR [transaction-capacity] a.channels.c.transactionCapacity: transactionCapacity is"
                + " 'lots', not a whole number, so Flume fails to configure channel c. Fix: write a whole"
                + " number."),
        lines(GOOD + "a.channels.c.transactionCapacity = lots\n"));
  }

  @Test
  void twoSinksOnOneChannel() {
    String shared =
        GOOD.replace("a.sinks = k", "a.sinks = k k2")
            + "a.sinks.k2.type = null\na.sinks.k2.channel = c\n";
    assertEquals(
        List.of(
            "WARNING [one-channel-per-sink] a.channels.c: 2 sinks (k, k2) take from channel c and"
                + " contend for it instead of scaling. Fix: give each sink its own channel and let the"
                + " sources fan out to them."),
        lines(shared));
  }

  @Test
  void channelNobodyDrains() {
    String undrained =
        GOOD.replace("a.channels = c", "a.channels = c c2")
                .replace("a.sources.r.channels = c", "a.sources.r.channels = c c2")
            + "a.channels.c2.type = memory\na.channels.c2.capacity = 10000\n"
            + "a.channels.c2.transactionCapacity = 1000\n";
    assertEquals(
        List.of(
            "ERROR [one-channel-per-sink] a.channels.c2: no sink takes from channel c2: it fills"
                + " up and then the sources putting into it fail. Fix: add a sink with channel = c2, or"
                + " remove the channel."),
        lines(undrained));
  }

  @Test
  void kafkaSourcesBeyondPartitions() {
    String core =
        """
                c.sources = k0 k1 k2
                c.channels = ch
                c.sinks = h
                c.sources.k0.type = org.apache.flume.source.kafka.KafkaSource
                c.sources.k1.type = org.apache.flume.source.kafka.KafkaSource
                c.sources.k2.type = org.apache.flume.source.kafka.KafkaSource
                c.sources.k0.kafka.topics = syslog
                c.sources.k1.kafka.topics = syslog
                c.sources.k2.kafka.topics = syslog
                c.sources.k0.kafka.consumer.group.id = g
                c.sources.k1.kafka.consumer.group.id = g
                c.sources.k2.kafka.consumer.group.id = g
                c.sources.k0.batchSize = 100
                c.sources.k1.batchSize = 100
                c.sources.k2.batchSize = 100
                c.sources.k0.header.host = host
                c.sources.k1.header.host = host
                c.sources.k2.header.host = host
                c.sources.k0.channels = ch
                c.sources.k1.channels = ch
                c.sources.k2.channels = ch
                c.channels.ch.type = memory
                c.sinks.h.type = hdfs
                c.sinks.h.channel = ch
                """;
    assertEquals(List.of(), lint(core, OptionalInt.of(3)));
    assertEquals(
        List.of(
            "WARNING [kafka-sources-vs-partitions] c.sources: 3 Kafka sources in group g on syslog"
                + " share 2 partitions; 1 get no partition and sit idle. Fix: use at most 2 sources, or add"
                + " partitions to the topic."),
        lint(core, OptionalInt.of(2)).stream().map(Finding::toString).toList());
    // Without the partition count the rule cannot judge and stays silent.
    assertEquals(List.of(), lint(core, OptionalInt.empty()));
  }

  @Test
  void maxRequestSizeBelowTheLargestMessage() {
    assertEquals(
        List.of(
            "ERROR [max-request-size] a.sinks.k.kafka.producer.max.request.size:"
                + " kafka.producer.max.request.size 1048576 is below source r's largest message (eventSize"
                + " 1048576) plus 16384 bytes for headers; such a message fails every retry and blocks sink"
                + " k. Fix: set a.sinks.k.kafka.producer.max.request.size to at least 1064960 (and the"
                + " topic's max.message.bytes with it), or lower a.sources.r.eventSize."),
        lines(GOOD + "a.sources.r.eventSize = 1048576\n"));
    assertEquals(
        List.of(),
        lines(
            GOOD
                + "a.sources.r.eventSize = 1048576\n"
                + "a.sinks.k.kafka.producer.max.request.size = 1064960\n"));
  }

  @Test
  void maxRequestSizeAppliesToKafkaChannelsAndOurSource() {
    String kafkaChannel =
        """
                e.sources = s
                e.channels = kc
                e.sources.s.type = org.flafka.edge.source.SyslogSource
                e.sources.s.protocol = tcp
                e.sources.s.maxMessageBytes = 2000000
                e.sources.s.channels = kc
                e.channels.kc.type = org.apache.flume.channel.kafka.KafkaChannel
                e.channels.kc.kafka.producer.max.request.size = 1048576
                """;
    List<String> findings = lines(kafkaChannel);
    assertEquals(1, findings.size(), findings.toString());
    assertTrue(
        findings
            .get(0)
            .startsWith(
                "ERROR [max-request-size] e.channels.kc.kafka.producer.max.request.size:"
                    + " kafka.producer.max.request.size 1048576 is below source s's largest message (maxMessageBytes"
                    + " 2000000)"),
        findings.get(0));
  }

  @Test
  void byteCapacityBelowTheLargestBatch() {
    assertEquals(
        List.of(
            "ERROR [byte-capacity] a.channels.c.byteCapacity: byteCapacity leaves 1600 bytes for"
                + " bodies, less than one message of source r (eventSize 2500): such a message is refused for"
                + " good, and the sender with it. Fix: set a.channels.c.byteCapacity to at least 1562500, or"
                + " lower a.sources.r.eventSize or a.sources.r.batchSize."),
        lines(GOOD + "a.channels.c.byteCapacity = 2000\n"));
    assertEquals(
        List.of(
            "WARNING [byte-capacity] a.channels.c.byteCapacity: byteCapacity leaves 800000 bytes"
                + " for bodies, less than a batch of source r at its largest (batchSize 500 × eventSize 2500):"
                + " such a batch is refused every time, holding TCP senders back for good. Fix: set"
                + " a.channels.c.byteCapacity to at least 1562500, or lower a.sources.r.eventSize or"
                + " a.sources.r.batchSize."),
        lines(GOOD + "a.channels.c.byteCapacity = 1000000\n"));
    assertEquals(List.of(), lines(GOOD + "a.channels.c.byteCapacity = 1562500\n"));
    // 0 (and anything under one 100-byte slot) sets no limit, as in Flume
    assertEquals(List.of(), lines(GOOD + "a.channels.c.byteCapacity = 0\n"));
    // our source's defaults: batchSize 1000 × maxMessageBytes 65536 into the edge's channel, half
    // of it
    String edge =
        """
                e.sources = s
                e.channels = c
                e.sinks = k
                e.sources.s.type = org.flafka.edge.source.SyslogSource
                e.sources.s.channels = c
                e.channels.c.type = org.flafka.edge.channel.BatchMemoryChannel
                e.channels.c.capacity = 20000
                e.channels.c.transactionCapacity = 10000
                e.channels.c.byteCapacity = 50000000
                e.sinks.k.type = org.flafka.edge.sink.KafkaRecordSink
                e.sinks.k.channel = c
                """;
    List<String> findings =
        lines(edge).stream().filter(f -> f.contains("[byte-capacity]")).toList();
    assertEquals(1, findings.size(), findings.toString());
    assertTrue(
        findings.get(0).contains("(batchSize 1000 × maxMessageBytes 65536)"), findings.get(0));
  }

  @Test
  void kafkaFlumeBatchSizeIsSilentlyIgnored() {
    assertEquals(
        List.of(
            "ERROR [ignored-key] a.sinks.k.kafka.flumeBatchSize: Flume 1.11's Kafka sink silently"
                + " ignores kafka.flumeBatchSize (the user guide is wrong), so the batch stays at 100. Fix:"
                + " rename it to a.sinks.k.flumeBatchSize."),
        lines(GOOD + "a.sinks.k.kafka.flumeBatchSize = 1000\n"));
  }

  @Test
  void zookeeperConnect() {
    assertEquals(
        List.of(
            "ERROR [zookeeper] a.sinks.k.zookeeperConnect: sink k sets zookeeperConnect, which makes"
                + " Flume call ZooKeeper code that Kafka 4 clients no longer have. Fix: remove it and set"
                + " a.sinks.k.kafka.bootstrap.servers."),
        lines(GOOD + "a.sinks.k.zookeeperConnect = zk:2181\n"));
  }

  @Test
  void loadBalancingSelectorInEitherSpelling() {
    String expected =
        "ERROR [load-balancing-selector] a.sources.r.selector.type: Flume 1.11 fails to validate"
            + " the load_balancing selector and drops source r with only a warning: the agent runs with no"
            + " input. Fix: use selector.type = multiplexing on the header of a FanOutInterceptor (what flafka"
            + " render writes), or a single channel.";
    assertEquals(List.of(expected), lines(GOOD + "a.sources.r.selector.type = load_balancing\n"));
    assertEquals(
        List.of(expected),
        lines(
            GOOD
                + "a.sources.r.selector.type = org.apache.flume.channel.LoadBalancingChannelSelector\n"));
  }

  @Test
  void selectorMappingToAChannelTheSourceDoesNotHave() {
    assertEquals(
        List.of(
            "ERROR [selector-mapping] a.sources.r.selector.mapping.1: maps to channel c9, which is"
                + " not among source r's channels (c), so Flume drops the source. Fix: add c9 to"
                + " a.sources.r.channels, or map to one of them."),
        lines(
            GOOD
                + "a.sources.r.selector.type = multiplexing\na.sources.r.selector.header = fanout\n"
                + "a.sources.r.selector.mapping.0 = c\na.sources.r.selector.mapping.1 = c9\n"));
  }

  @Test
  void sourceAndSinkWithoutChannels() {
    String broken =
        GOOD.replace("a.sources.r.channels = c\n", "")
            .replace("a.sinks.k.channel = c\n", "a.sinks.k.channel = c7\n");
    List<String> findings = lines(broken);
    assertTrue(
        findings.contains(
            "ERROR [missing-channel] a.sources.r.channels: source r has no channels, so"
                + " Flume drops it. Fix: set a.sources.r.channels to one or more of: c."),
        findings.toString());
    assertTrue(
        findings.contains(
            "ERROR [missing-channel] a.sinks.k.channel: sink k takes from channel c7, which"
                + " is not in a.channels. Fix: add c7 to a.channels and define it, or fix the name."),
        findings.toString());
  }

  @Test
  void listedButUndefinedAndDefinedButUnlisted() {
    List<String> findings =
        lines(GOOD.replace("a.sinks = k", "a.sinks = k k9") + "a.channels.spare.type = memory\n");
    assertEquals(
        List.of(
            "WARNING [undefined-component] a.channels.spare: channel spare has properties but is not listed in"
                + " a.channels, so Flume ignores it. Fix: add spare to a.channels, or delete its"
                + " properties.",
            "ERROR [undefined-component] a.sinks.k9: sink k9 is listed in a.sinks but has no type, so Flume"
                + " drops it. Fix: set a.sinks.k9.type, or remove k9 from a.sinks."),
        findings);
  }

  @Test
  void headersThatDoNotCrossKafkaAndTopicRerouting() {
    List<String> findings =
        lines(
            GOOD.replace("a.sinks.k.header.host = host\n", "")
                .replace("a.sinks.k.allowTopicOverride = false\n", ""));
    assertEquals(
        List.of(
            "WARNING [kafka-headers] a.sinks.k: sink k maps no Flume header to a Kafka record header, so only"
                + " the body reaches Kafka. Fix: add a.sinks.k.header.<name> = <name> for each header to"
                + " carry.",
            "WARNING [kafka-headers] a.sinks.k.allowTopicOverride: an event with a header named topic goes to"
                + " that topic instead of syslog. Fix: set a.sinks.k.allowTopicOverride = false."),
        findings);
  }

  @Test
  void ourKafkaRecordSinkHasItsOwnBatchKeyRequestSizeAndHeaderList() {
    String ours =
        GOOD.replace(
                """
                a.sinks.k.type = org.apache.flume.sink.kafka.KafkaSink
                """,
                """
                a.sinks.k.type = org.flafka.edge.sink.KafkaRecordSink
                """)
            .replace("a.sinks.k.flumeBatchSize = 1000\n", "")
            .replace("a.sinks.k.allowTopicOverride = false\n", "")
            .replace("a.sinks.k.header.host = host\n", "a.sinks.k.recordHeaders = host\n");
    assertEquals(List.of(), lines(ours));
    // Its batchSize defaults to 1000, and neither allowTopicOverride nor header.<name> applies to
    // it.
    assertEquals(
        List.of(
            "ERROR [transaction-capacity] a.channels.c.transactionCapacity: transactionCapacity 500"
                + " is below the batch size 1000 of sink k (batchSize), so its transactions fail."
                + " Fix: set a.channels.c.transactionCapacity to at least 1000, or lower a.sinks.k.batchSize."),
        lines(
            ours.replace(
                    "a.channels.c.transactionCapacity = 1000",
                    "a.channels.c.transactionCapacity = 500")
                .replace("a.sources.r.batchSize = 500", "a.sources.r.batchSize = 100")));
    List<String> tooSmall = lines(ours + "a.sources.r.eventSize = 1048576\n");
    assertEquals(1, tooSmall.size(), tooSmall.toString());
    assertTrue(
        tooSmall
            .get(0)
            .contains(
                "plus 16384 bytes for headers; such a message is dropped (counted in"
                    + " EventWriteFail). Fix:"),
        tooSmall.get(0));
    assertEquals(
        List.of(
            "WARNING [kafka-headers] a.sinks.k.recordHeaders: sink k writes no Flume header as a"
                + " Kafka record header, so only the body reaches Kafka. Fix: set a.sinks.k.recordHeaders to"
                + " the headers to carry, or * for all."),
        lines(ours.replace("a.sinks.k.recordHeaders = host", "a.sinks.k.recordHeaders =")));
  }

  @Test
  void ourCorePluginsBatchesAreHeldToTheChannelsTransactionCapacityAndTheSourceToItsHeaderList() {
    String core =
        """
                c.sources = k
                c.channels = ch
                c.sinks = h
                c.sources.k.type = org.apache.flume.source.kafka.KafkaSource
                c.sources.k.kafka.topics = syslog
                c.sources.k.header.host = host
                c.sources.k.batchSize = 100
                c.sources.k.channels = ch
                c.channels.ch.type = memory
                c.channels.ch.capacity = 20000
                c.channels.ch.transactionCapacity = 500
                c.sinks.h.type = org.flafka.core.HdfsBucketSink
                c.sinks.h.channel = ch
                c.sinks.h.hdfs.root = hdfs://nn/data/syslog
                c.sinks.h.hdfs.filePrefix = core-h
                """;
    // Its hdfs.batchSize defaults to 1000 (Flume's HDFS sink: 100)
    assertEquals(
        List.of(
            "ERROR [transaction-capacity] c.channels.ch.transactionCapacity: transactionCapacity 500"
                + " is below the batch size 1000 of sink h (hdfs.batchSize), so its transactions fail."
                + " Fix: set c.channels.ch.transactionCapacity to at least 1000, or lower c.sinks.h.hdfs.batchSize."),
        lines(core));
    assertEquals(List.of(), lines(core + "c.sinks.h.hdfs.batchSize = 500\n"));
    // Our Kafka source: batchSize and group as Flume's, record headers by list
    String ours =
        core.replace(
                    "org.apache.flume.source.kafka.KafkaSource",
                    "org.flafka.core.KafkaRecordSource")
                .replace("c.sources.k.header.host = host\n", "c.sources.k.recordHeaders = host\n")
            + "c.sources.k.kafka.bootstrap.servers = b:9092\nc.sinks.h.hdfs.batchSize = 500\n";
    assertEquals(List.of(), lines(ours));
    assertEquals(
        List.of(
            "WARNING [kafka-headers] c.sources.k.recordHeaders: source k copies no Kafka record"
                + " header to a Flume header, so events arrive without host or timestamp and land in the"
                + " wrong bucket. Fix: set c.sources.k.recordHeaders to the headers the edge carries, or *"
                + " for all."),
        lines(ours.replace("recordHeaders = host", "recordHeaders =")));
    assertEquals(
        1,
        lines(ours.replace("c.sources.k.batchSize = 100", "c.sources.k.batchSize = 501")).size());
  }

  @Test
  void udpSourceIntoAKafkaChannel() {
    String ours =
        """
                e.sources = u
                e.channels = k
                e.sources.u.type = org.flafka.edge.source.SyslogSource
                e.sources.u.protocol = udp
                e.sources.u.port = 514
                e.sources.u.channels = k
                e.channels.k.type = org.flafka.edge.channel.KafkaRecordChannel
                e.channels.k.kafka.bootstrap.servers = b:9092
                e.channels.k.kafka.topic = t
                """;
    assertEquals(
        List.of(
            "WARNING [udp-kafka-channel] e.channels.k: UDP source u puts into channel k, which"
                + " answers only once Kafka has acknowledged each batch; datagrams that arrive meanwhile wait"
                + " in the kernel's receive buffer and are dropped when it fills (counted in"
                + " UdpSocketDropCount). Fix: give the UDP source a memory channel with Kafka sinks (the"
                + " template: edge_channel_type: memory, or udp out of edge_listeners), or, if this channel"
                + " must stay, raise udp.receiveThreads (edge_udp_receive_threads) so that several puts wait"
                + " at once, and udp.receiveBufferBytes (edge_udp_receive_buffer_bytes) for the bursts."),
        lines(ours));
    assertEquals(
        List.of(),
        lines(ours.replace("protocol = udp", "protocol = tcp")),
        "TCP is held back instead");
    assertEquals(
        0,
        count(ours + "e.sources.u.udp.receiveThreads = 4\n", "udp-kafka-channel"),
        "several UDP threads: the fix applied");
    assertEquals(1, count(ours + "e.sources.u.udp.receiveThreads = 1\n", "udp-kafka-channel"));
    String stock =
        ours.replace("org.flafka.edge.source.SyslogSource", "syslogudp")
            .replace(
                "org.flafka.edge.channel.KafkaRecordChannel",
                "org.apache.flume.channel.kafka.KafkaChannel");
    List<String> stockFindings =
        lines(stock).stream().filter(line -> line.contains("[udp-kafka-channel]")).toList();
    assertEquals(1, stockFindings.size(), "Flume's own UDP source and Kafka channel too");
    assertTrue(
        stockFindings
            .get(0)
            .endsWith(
                "if this channel must stay, raise udp.receiveBufferBytes"
                    + " (edge_udp_receive_buffer_bytes) for the bursts."),
        "syslogudp has no receive threads to raise");
    assertEquals(
        0,
        count(
            stock.replace("org.apache.flume.channel.kafka.KafkaChannel", "memory"),
            "udp-kafka-channel"));
  }

  private static long count(String text, String rule) {
    return lint(text, OptionalInt.empty()).stream()
        .filter(finding -> finding.rule().equals(rule))
        .count();
  }

  @Test
  void ourPluginsKeysAreCheckedAsTheAgentWouldAtStart() {
    String edge =
        """
                e.sources = u
                e.channels = m
                e.sinks = k
                e.sources.u.type = org.flafka.edge.source.SyslogSource
                e.sources.u.protocol = udp
                e.sources.u.channels = m
                e.sources.u.interceptors = parse
                e.sources.u.interceptors.parse.type = org.flafka.interceptors.SyslogInterceptor$Builder
                e.sources.u.interceptors.parse.site = par1
                e.channels.m.type = org.flafka.edge.channel.BatchMemoryChannel
                e.channels.m.capacity = 20000
                e.channels.m.transactionCapacity = 5000
                e.sinks.k.type = org.flafka.edge.sink.KafkaRecordSink
                e.sinks.k.channel = m
                e.sinks.k.kafka.bootstrap.servers = b:9092
                e.sinks.k.kafka.topic = syslog
                """;
    assertEquals(0, count(edge, "plugin-keys"), lines(edge).toString());
    assertEquals(
        List.of(
            "ERROR [plugin-keys] e.sources.u: source u is refused at start: syslog source u: invalid"
                + " value '65' for key 'udp.receiveThreads': must be between 1 and 64. Fix: set"
                + " udp.receiveThreads to between 1 and 64."),
        lines(edge + "e.sources.u.udp.receiveThreads = 65\n"));
    assertEquals(
        List.of(
            "ERROR [plugin-keys] e.sources.u: source u is refused at start: syslog source u: unknown"
                + " key 'udp.receivethreads' (did you mean 'udp.receiveThreads'?). Fix: remove it or use one of"
                + " protocol, bind, port, portFile, framing, framing.nulDelimiter, maxMessageBytes, batchSize,"
                + " batchDurationMillis, maxConnections, maxConnectionsPerAddress,"
                + " tcp.frameTimeoutSeconds, tcp.idleTimeoutSeconds, tcp.workerThreads,"
                + " udp.receiveBufferBytes, udp.receiveThreads, udp.transport, udp.queueBytes, udp.channelFullTimeoutMillis, tls.keystore,"
                + " tls.keystorePassword, tls.keystoreType, tls.clientAuth, tls.truststore,"
                + " tls.truststorePassword, tls.truststoreType, tls.handshakeTimeoutSeconds,"
                + " tls.protocols."),
        lines(edge + "e.sources.u.udp.receivethreads = 4\n"));
    assertEquals(
        List.of(
            "ERROR [plugin-keys] e.channels.m: channel m is refused at start: memory channel m:"
                + " transactionCapacity = 5000 is larger than capacity = 500, so a full transaction could never"
                + " commit. Fix: raise capacity or lower transactionCapacity."),
        lines(edge.replace("e.channels.m.capacity = 20000", "e.channels.m.capacity = 500")).stream()
            .filter(f -> !f.contains("[transaction-capacity]"))
            .toList());
    List<String> interceptor = lines(edge + "e.sources.u.interceptors.parse.sit = par2\n");
    assertEquals(1, interceptor.size(), interceptor.toString());
    assertTrue(
        interceptor
            .get(0)
            .startsWith(
                "ERROR [plugin-keys] e.sources.u.interceptors.parse: interceptor"
                    + " parse of source u is refused at start: syslog interceptor: unknown key 'sit' (did you mean"
                    + " 'site'?)"),
        interceptor.get(0));
    assertEquals(
        List.of(
            "ERROR [plugin-keys] e.sinks.k: sink k is refused at start: Kafka record sink k: missing"
                + " required key 'kafka.topic'. Fix: add kafka.topic = syslog to the sink."),
        lines(edge.replace("e.sinks.k.kafka.topic = syslog\n", "")));
  }

  @Test
  void theHostileSenderLimitsAreCheckedWithTheSourcesOwnRanges() {
    String edge =
        """
                e.sources = t
                e.channels = m
                e.sinks = k
                e.sources.t.type = org.flafka.edge.source.SyslogSource
                e.sources.t.protocol = tcp
                e.sources.t.channels = m
                e.sources.t.maxConnectionsPerAddress = 10
                e.sources.t.tcp.frameTimeoutSeconds = 60
                e.channels.m.type = org.flafka.edge.channel.BatchMemoryChannel
                e.channels.m.capacity = 20000
                e.channels.m.transactionCapacity = 5000
                e.sinks.k.type = org.flafka.edge.sink.KafkaRecordSink
                e.sinks.k.channel = m
                e.sinks.k.kafka.bootstrap.servers = b:9092
                e.sinks.k.kafka.topic = syslog
                """;
    assertEquals(0, count(edge, "plugin-keys"), lines(edge).toString());
    assertEquals(
        List.of(
            "ERROR [plugin-keys] e.sources.t: source t is refused at start: syslog source t: invalid"
                + " value '90000' for key 'tcp.frameTimeoutSeconds': must be between 0 and 86400. Fix: set"
                + " tcp.frameTimeoutSeconds to between 0 and 86400."),
        lines(edge.replace("tcp.frameTimeoutSeconds = 60", "tcp.frameTimeoutSeconds = 90000")));
    assertEquals(
        List.of(
            "ERROR [plugin-keys] e.sources.t: source t is refused at start: syslog source t: invalid"
                + " value '0' for key 'maxConnectionsPerAddress': must be at least 1. Fix: set"
                + " maxConnectionsPerAddress to at least 1."),
        lines(edge.replace("maxConnectionsPerAddress = 10", "maxConnectionsPerAddress = 0")));
    assertEquals(
        List.of(
            "ERROR [plugin-keys] e.sources.t: source t is refused at start: syslog source t: key"
                + " 'tls.handshakeTimeoutSeconds' does not apply to protocol=tcp (it applies to tls)."
                + " Fix: remove tls.handshakeTimeoutSeconds or set protocol to one it applies to."),
        lines(edge + "e.sources.t.tls.handshakeTimeoutSeconds = 5\n"));
  }

  @Test
  void kafkaChannelThatDropsHeaders() {
    String text =
        """
                e.sources = s
                e.channels = kc
                e.sources.s.type = syslogtcp
                e.sources.s.channels = kc
                e.channels.kc.type = org.apache.flume.channel.kafka.KafkaChannel
                e.channels.kc.parseAsFlumeEvent = false
                """;
    assertEquals(
        List.of(
            "ERROR [kafka-headers] e.channels.kc.parseAsFlumeEvent: Flume 1.11's Kafka channel"
                + " writes no record headers, so parseAsFlumeEvent = false drops every header. Fix: set it"
                + " to true and read the topic with useFlumeEventFormat = true, or use"
                + " org.flafka.edge.channel.KafkaRecordChannel, which writes record headers."),
        lines(text));
  }

  @Test
  void ourKafkaRecordChannelNeedsNoSinkAndIsHeldToItsTransactionCapacityAndHeaderList() {
    String ours =
        """
                e.sources = s
                e.channels = kc
                e.sources.s.type = org.flafka.edge.source.SyslogSource
                e.sources.s.protocol = tcp
                e.sources.s.port = 5514
                e.sources.s.batchSize = 1000
                e.sources.s.channels = kc
                e.channels.kc.type = org.flafka.edge.channel.KafkaRecordChannel
                e.channels.kc.kafka.bootstrap.servers = k:9092
                e.channels.kc.kafka.topic = syslog
                e.channels.kc.recordHeaders = host,id
                """;
    assertEquals(List.of(), lines(ours), "no sink, and its transactionCapacity defaults to 10000");
    assertEquals(
        List.of(
            "ERROR [transaction-capacity] e.channels.kc.transactionCapacity: transactionCapacity 500"
                + " is below the batch size 1000 of source s (batchSize), so its transactions fail."
                + " Fix: set e.channels.kc.transactionCapacity to at least 1000, or lower"
                + " e.sources.s.batchSize."),
        lines(ours + "e.channels.kc.transactionCapacity = 500\n"));
    assertEquals(
        List.of(
            "WARNING [kafka-headers] e.channels.kc.recordHeaders: channel kc writes no Flume header"
                + " as a Kafka record header, so only the body reaches Kafka. Fix: set"
                + " e.channels.kc.recordHeaders to the headers to carry, or * for all."),
        lines(ours.replace("recordHeaders = host,id", "recordHeaders =")));
    List<String> tooSmall = lines(ours + "e.channels.kc.kafka.producer.max.request.size = 4096\n");
    assertEquals(1, tooSmall.size(), tooSmall.toString());
    assertTrue(
        tooSmall
            .get(0)
            .contains(
                "such a message is dropped (counted in the source's"
                    + " RecordTooLargeDropCount). Fix:"),
        tooSmall.get(0));
  }

  @Test
  void fileWithoutAgents() {
    assertEquals(
        List.of(
            "ERROR [undefined-component] (file): no agent found: no key of the form <agent>.sources,"
                + " <agent>.channels or <agent>.sinks. Fix: lint a Flume agent properties file, e.g. one"
                + " written by flafka render."),
        lines("just.some = thing\n"));
  }

  @Test
  void aKafkaClientLeftInPlaintextBesideASecureOneIsWarnedAbout() {
    String secureSinkPlainSource =
        GOOD.replace("a.sources = r", "a.sources = r s")
            + """
            a.sinks.k.kafka.producer.security.protocol = SASL_SSL
            a.sources.s.type = org.apache.flume.source.kafka.KafkaSource
            a.sources.s.channels = c
            a.sources.s.kafka.bootstrap.servers = localhost:9092
            a.sources.s.kafka.topics = other
            """;
    List<String> findings =
        lines(secureSinkPlainSource).stream().filter(l -> l.contains("kafka-security")).toList();
    assertEquals(1, findings.size(), findings.toString());
    assertTrue(
        findings.get(0).contains("a.sources.s.kafka.consumer.security.protocol"), findings.get(0));
    assertTrue(findings.get(0).contains("uses SASL_SSL"), findings.get(0));
    assertEquals(
        List.of(),
        lines(
                secureSinkPlainSource.replace(
                    "a.sources.s.kafka.topics = other",
                    "a.sources.s.kafka.topics = other\na.sources.s.kafka.consumer.security.protocol ="
                        + " SASL_SSL"))
            .stream()
            .filter(l -> l.contains("kafka-security"))
            .toList());
  }

  @Test
  void anHdfsSinkOnSimpleAuthenticationBesideSecureKafkaIsWarnedAbout() {
    String core =
        """
        c.sources = s
        c.channels = ch
        c.sinks = h
        c.sources.s.type = org.flafka.core.KafkaRecordSource
        c.sources.s.channels = ch
        c.sources.s.kafka.bootstrap.servers = kafka1:9093
        c.sources.s.kafka.topics = syslog
        c.sources.s.kafka.consumer.security.protocol = SASL_SSL
        c.channels.ch.type = memory
        c.channels.ch.capacity = 20000
        c.channels.ch.transactionCapacity = 10000
        c.sinks.h.type = org.flafka.core.HdfsBucketSink
        c.sinks.h.channel = ch
        c.sinks.h.hdfs.root = hdfs://nn:8020/data/syslog
        c.sinks.h.hdfs.filePrefix = core-hdfs0
        c.sinks.h.hdfs.batchSize = 1000
        """;
    List<String> findings = lines(core).stream().filter(l -> l.contains("hdfs-security")).toList();
    assertEquals(1, findings.size(), lines(core).toString());
    assertTrue(findings.get(0).startsWith("WARNING [hdfs-security]"), findings.get(0));
    assertTrue(findings.get(0).contains("c.sinks.h.hdfs.kerberosPrincipal"), findings.get(0));
    assertTrue(findings.get(0).contains("SASL_SSL"), findings.get(0));
    assertTrue(findings.get(0).contains("hdfs_kerberos_principal"), findings.get(0));

    String kerberized =
        core
            + "c.sinks.h.hdfs.kerberosPrincipal = flafka-core/_HOST@EXAMPLE.COM\n"
            + "c.sinks.h.hdfs.kerberosKeytab = /etc/flafka/hdfs.keytab\n";
    assertEquals(
        List.of(), lines(kerberized).stream().filter(l -> l.contains("hdfs-security")).toList());
    assertEquals(
        List.of(),
        lines(core.replace("c.sources.s.kafka.consumer.security.protocol = SASL_SSL\n", ""))
            .stream()
            .filter(l -> l.contains("hdfs-security"))
            .toList());
  }

  @Test
  void securitySettingsOnAPlaintextClientAreWarnedAboutAsIgnored() {
    List<String> findings =
        lines(GOOD + "a.sinks.k.kafka.producer.ssl.truststore.location = /etc/flafka/ca.p12\n");
    assertEquals(1, findings.size(), findings.toString());
    assertTrue(findings.get(0).startsWith("WARNING [kafka-security]"), findings.get(0));
    assertTrue(
        findings.get(0).contains("a.sinks.k.kafka.producer.ssl.truststore.location is set"),
        findings.get(0));
  }

  @Test
  void anEdgeWritingWithSaslPlaintextIsWarnedThatItsRecordsCrossInClear() {
    List<String> findings =
        lines(GOOD + "a.sinks.k.kafka.producer.security.protocol = SASL_PLAINTEXT\n");
    assertEquals(1, findings.size(), findings.toString());
    assertTrue(findings.get(0).contains("unencrypted"), findings.get(0));
    assertTrue(findings.get(0).contains("Fix: use SASL_SSL"), findings.get(0));
    assertEquals(
        List.of(), lines(GOOD + "a.sinks.k.kafka.producer.security.protocol = SASL_SSL\n"));
  }
}
