package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flume.Channel;
import org.apache.flume.Event;
import org.apache.flume.Source;
import org.apache.flume.SourceRunner;
import org.apache.flume.Transaction;
import org.apache.flume.lifecycle.LifecycleState;
import org.apache.flume.node.Application;
import org.apache.flume.node.MaterializedConfiguration;
import org.apache.flume.node.PropertiesFileConfigurationProvider;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Flume 1.11 agent in this JVM: Flume's stock syslogtcp and multiport_syslogtcp sources, our
 * two interceptors, a memory channel. Real syslog lines go in over TCP; the headers are checked on
 * the events taken from the channel.
 */
@Tag("e2e")
class FlumeAgentTest {

  private static final String AGENT = "edge";

  @TempDir Path dir;

  /**
   * The agent: both stock TCP syslog sources on ephemeral loopback ports, both interceptors, one
   * channel.
   */
  private static final String CONFIG =
      String.join(
          "\n",
          "edge.sources = tcp multi",
          "edge.channels = mem",
          "edge.channels.mem.type = memory",
          "edge.channels.mem.capacity = 1000",
          "edge.channels.mem.transactionCapacity = 100",
          // keepFields = all: the stock sources otherwise cut PRI, time and host out of the body.
          "edge.sources.tcp.type = syslogtcp",
          "edge.sources.tcp.host = 127.0.0.1",
          "edge.sources.tcp.port = 0",
          "edge.sources.tcp.keepFields = all",
          "edge.sources.tcp.clientIPHeader = peer",
          "edge.sources.tcp.channels = mem",
          "edge.sources.tcp.interceptors = parse id",
          "edge.sources.tcp.interceptors.parse.type = org.flafka.interceptors.SyslogInterceptor$Builder",
          "edge.sources.tcp.interceptors.parse.site = par-03",
          "edge.sources.tcp.interceptors.parse.overwrite = timestamp,host",
          "edge.sources.tcp.interceptors.id.type = org.flafka.interceptors.EventIdInterceptor$Builder",
          "edge.sources.multi.type = multiport_syslogtcp",
          "edge.sources.multi.host = 127.0.0.1",
          "edge.sources.multi.ports = 0",
          "edge.sources.multi.keepFields = all",
          "edge.sources.multi.clientIPHeader = peer",
          "edge.sources.multi.channels = mem",
          "edge.sources.multi.interceptors = parse id",
          "edge.sources.multi.interceptors.parse.type = org.flafka.interceptors.SyslogInterceptor$Builder",
          "edge.sources.multi.interceptors.parse.site = par-03",
          "edge.sources.multi.interceptors.parse.overwrite = timestamp,host",
          "edge.sources.multi.interceptors.id.type = org.flafka.interceptors.EventIdInterceptor$Builder",
          "");

  @Test
  void stockSyslogSourcesWithOurInterceptorsSetTheHeaderContract() throws Exception {
    MaterializedConfiguration conf = load(CONFIG);
    assertNothingDropped(conf, Set.of("tcp", "multi"), Set.of("mem"));

    Application agent = new Application();
    long before = System.currentTimeMillis();
    agent.handleConfigurationEvent(conf);
    try {
      Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
      String rfc5424 =
          "<165>1 "
              + now
              + " Edge-Router-7.example.net evntslog 1234 ID47 "
              + "[exampleSDID@32473 iut=\"3\"] link flap on ge-0/0/1";
      Instant bsdTime = now.truncatedTo(ChronoUnit.SECONDS);
      String rfc3164 =
          "<34>"
              + DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss", Locale.ROOT)
                  .withZone(ZoneOffset.UTC)
                  .format(bsdTime)
              + " mymachine su[230]: 'su root' failed for lonvick";
      String junk = "this is not syslog";

      send(boundPort(conf.getSourceRunners().get("tcp")), rfc5424, rfc3164, junk);
      send(boundPort(conf.getSourceRunners().get("multi")), rfc5424, rfc3164, junk);
      List<Event> events = take(conf.getChannels().get("mem"), 6);
      long after = System.currentTimeMillis();

      assertEquals(6, events.size());
      Map<String, Integer> seen = new HashMap<>();
      for (Event event : events) {
        Map<String, String> headers = event.getHeaders();
        String body = new String(event.getBody(), StandardCharsets.UTF_8);
        seen.merge(body, 1, Integer::sum);
        String context = body + " -> " + headers;

        // Every event, whatever its content:
        assertEquals("par-03", headers.get("site"), context);
        assertEquals("127.0.0.1", headers.get("peer"), context);
        long received = Long.parseLong(headers.get("received"));
        assertTrue(received >= before && received <= after, context);
        long idTime = UlidGenerator.timestampOf(headers.get("id"));
        assertTrue(idTime >= before && idTime <= after, context);

        if (body.equals(rfc5424)) {
          assertEquals(Long.toString(now.toEpochMilli()), headers.get("timestamp"), context);
          assertEquals("message", headers.get("timestamp_source"), context);
          assertEquals("edge-router-7.example.net", headers.get("host"), context);
          assertEquals("20", headers.get("facility"), context);
          assertEquals("5", headers.get("severity"), context);
          assertEquals("evntslog", headers.get("app"), context);
          assertEquals("1234", headers.get("procid"), context);
          assertEquals("ID47", headers.get("msgid"), context);
          assertEquals("rfc5424", headers.get("format"), context);
          assertEquals("ok", headers.get("parse"), context);
        } else if (body.equals(rfc3164)) {
          assertEquals(Long.toString(bsdTime.toEpochMilli()), headers.get("timestamp"), context);
          assertEquals("message", headers.get("timestamp_source"), context);
          assertEquals("mymachine", headers.get("host"), context);
          assertEquals("4", headers.get("facility"), context);
          assertEquals("2", headers.get("severity"), context);
          assertEquals("su", headers.get("app"), context);
          assertEquals("230", headers.get("procid"), context);
          assertEquals("rfc3164", headers.get("format"), context);
        } else if (body.equals(junk)) {
          assertEquals("raw", headers.get("parse"), context);
          assertEquals("unknown", headers.get("format"), context);
          assertEquals("127.0.0.1", headers.get("host"), context);
          assertEquals("received", headers.get("timestamp_source"), context);
          assertEquals(headers.get("received"), headers.get("timestamp"), context);
        } else {
          fail("a body was changed on the way: " + context);
        }
      }
      assertEquals(Map.of(rfc5424, 2, rfc3164, 2, junk, 2), seen);
    } finally {
      agent.stop();
    }
  }

  @Test
  void aBadInterceptorSettingMakesFlumeDropTheSourceWhichTheStartupCheckCatches() throws Exception {
    MaterializedConfiguration conf =
        load(CONFIG.replace("parse.site = par-03", "parse.site = par/03"));
    AssertionError dropped = null;
    try {
      assertNothingDropped(conf, Set.of("tcp", "multi"), Set.of("mem"));
    } catch (AssertionError e) {
      dropped = e;
    }
    assertNotNull(dropped, "Flume kept a source whose interceptor was misconfigured");
    // With both its sources gone the channel has no component left, and Flume removes it too.
    assertEquals(
        "Flume dropped components at start-up (see its ERROR log): sources [multi, tcp] channels [mem]",
        dropped.getMessage());
  }

  // PropertiesFileConfigurationProvider is deprecated in 1.11 in favour of
  // UriConfigurationProvider, which it
  // wraps; it is the one-line way to load a file that docs/reference/dependencies.md, "Starting
  // agents in a JVM, and as processes" verified.
  @SuppressWarnings("deprecation")
  private MaterializedConfiguration load(String properties) throws IOException {
    Path file = dir.resolve(AGENT + ".properties");
    Files.writeString(file, properties);
    return new PropertiesFileConfigurationProvider(AGENT, file.toFile()).getConfiguration();
  }

  /**
   * Flume drops a misconfigured component with only a log line and runs without it
   * (docs/reference/dependencies.md, "Flume drops a component it cannot configure"): fail unless
   * every configured component made it into the materialised configuration.
   */
  private static void assertNothingDropped(
      MaterializedConfiguration conf, Set<String> sources, Set<String> channels) {
    TreeSet<String> missingSources = new TreeSet<>(sources);
    missingSources.removeAll(conf.getSourceRunners().keySet());
    TreeSet<String> missingChannels = new TreeSet<>(channels);
    missingChannels.removeAll(conf.getChannels().keySet());
    if (!missingSources.isEmpty() || !missingChannels.isEmpty()) {
      throw new AssertionError(
          "Flume dropped components at start-up (see its ERROR log):"
              + (missingSources.isEmpty() ? "" : " sources " + missingSources)
              + (missingChannels.isEmpty() ? "" : " channels " + missingChannels));
    }
  }

  /**
   * The port a stock source bound for "port 0". Neither source has a public accessor: syslogtcp has
   * a package-private getBoundAddress() for Flume's own tests, multiport_syslogtcp keeps its MINA
   * acceptor in a private field. Waits for the supervisor to start the source, since the agent
   * starts components asynchronously.
   */
  private static int boundPort(SourceRunner runner) throws Exception {
    Source source = runner.getSource();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (source.getLifecycleState() != LifecycleState.START) {
      if (System.nanoTime() > deadline) {
        fail("source " + source.getName() + " did not start");
      }
      Thread.sleep(20);
    }
    SocketAddress address;
    if (source.getClass().getSimpleName().equals("SyslogTcpSource")) {
      Method bound = source.getClass().getDeclaredMethod("getBoundAddress");
      bound.setAccessible(true);
      address = (SocketAddress) bound.invoke(source);
    } else {
      Field acceptorField = source.getClass().getDeclaredField("acceptor");
      acceptorField.setAccessible(true);
      NioSocketAcceptor acceptor = (NioSocketAcceptor) acceptorField.get(source);
      address = acceptor.getLocalAddress();
    }
    assertNotNull(address, "source " + source.getName() + " is not bound");
    return ((InetSocketAddress) address).getPort();
  }

  private static void send(int port, String... lines) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      OutputStream out = socket.getOutputStream();
      for (String line : lines) {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
      out.flush();
    }
  }

  /**
   * Takes {@code count} events from the channel, one transaction each, waiting up to 30 s for them
   * to arrive.
   */
  private static List<Event> take(Channel channel, int count) throws InterruptedException {
    List<Event> events = new ArrayList<>();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (events.size() < count && System.nanoTime() < deadline) {
      Transaction transaction = channel.getTransaction();
      transaction.begin();
      Event event;
      try {
        event = channel.take();
        transaction.commit();
      } finally {
        transaction.close();
      }
      if (event == null) {
        Thread.sleep(20);
      } else {
        events.add(event);
      }
    }
    return events;
  }
}
