package org.flafka.bench;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.flafka.contract.Headers;
import org.flafka.load.Protocol;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.stack.ChildProcess;
import org.flafka.stack.ThreadCpu;

/**
 * rsyslogd forwarding to Kafka with its omkafka output (Debian's rsyslog-kafka, librdkafka), for
 * the bench's {@link Variant#RSYSLOG} and {@link Variant#RSYSLOG_FIELDS}: the C daemon a user could
 * pick instead of a Flume edge, measured in the same run on the same broker and load. It listens on
 * the bench's protocol (imtcp or imudp), and omkafka writes one record without headers per message,
 * with the producer settings of ours: acks=all, snappy, 10 ms linger. What the record holds is its
 * {@link Body}. Everything else is rsyslog's default. rsyslog keeps no counts the bench reads, so a
 * trial has only what Kafka and /proc say.
 */
final class RsyslogEdge implements EdgeProcess {
  private static final List<Path> RSYSLOGD_CANDIDATES =
      List.of(
          Path.of("/usr/sbin/rsyslogd"),
          Path.of("/sbin/rsyslogd"),
          Path.of("/usr/local/sbin/rsyslogd"));
  private static final String INSTALL_HINT =
      "install Debian's rsyslog and rsyslog-kafka packages (scripts/setup " + "does)";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

  /**
   * rsyslog's threads by what they do: inputs ({@code in:imtcp}, and imudp's workers {@code
   * imudp(w0)}), the queue workers that run the omkafka action ({@code rs:main Q:Reg}),
   * librdkafka's own threads ({@code rdk:main}, {@code rdk:broker1}).
   */
  static final ThreadCpu.ThreadGroups THREAD_GROUPS =
      name -> {
        if (name.startsWith("in:") || name.startsWith("imudp(")) {
          return "rsyslog input";
        }
        if (name.startsWith("rs:")) {
          return "rsyslog queue workers (omkafka)";
        }
        if (name.startsWith("rdk:")) {
          return "librdkafka threads";
        }
        return "rsyslog other";
      };

  /** What rsyslog writes as each record's value. */
  enum Body {
    /**
     * The message as received (rsyslog's {@code rawmsg}: the line without its framing), as the C
     * daemons do.
     */
    RAW_MESSAGE("template(name=\"body\" type=\"string\" string=\"%rawmsg%\")\n"),
    /**
     * The facts the edge contract carries in record headers, as rsyslog's own parser finds them,
     * and the raw message, in one JSON object: omkafka cannot set per-message record headers, so a
     * user who wants those facts from rsyslog gets them this way. 11 of the contract's 14: rsyslog
     * reports no parse status and no source of the timestamp, and its only unique id, the {@code
     * uuid} property, is left out because it costs more than all the rest (libuuid seeds a
     * generator for every message, under one lock: 216,000 events/s at 6.5 CPU-s per million with
     * it, docs/benchmarks.md). {@code format} is rsyslog's protocol version (0 for RFC 3164, 1 for
     * RFC 5424); the times are whole seconds.
     */
    CONTRACT_FIELDS_JSON(
        "template(name=\"body\" type=\"list\" option.jsonf=\"on\") {\n"
            + time(Headers.TIMESTAMP, "timereported")
            + field(Headers.HOST, "hostname")
            + field(Headers.FACILITY, "syslogfacility-text")
            + field(Headers.SEVERITY, "syslogseverity-text")
            + field(Headers.APP, "app-name")
            + field(Headers.PROCID, "procid")
            + field(Headers.MSGID, "msgid")
            + field(Headers.FORMAT, "protocol-version")
            + time(Headers.RECEIVED, "timegenerated")
            + field(Headers.PEER, "fromhost-ip")
            + "  constant(outname=\""
            + Headers.SITE
            + "\" value=\""
            + Variant.SITE
            + "\" format=\"jsonf\")\n"
            + field("message", "rawmsg")
            + "}\n");

    /** rsyslog's template named {@code body}. */
    private final String template;

    Body(String template) {
      this.template = template;
    }

    private static String field(String name, String property) {
      return "  property(outname=\"" + name + "\" name=\"" + property + "\" format=\"jsonf\")\n";
    }

    /** A time property as epoch seconds (rsyslog's unixtimestamp has no milliseconds). */
    private static String time(String name, String property) {
      return "  property(outname=\""
          + name
          + "\" name=\""
          + property
          + "\" dateFormat=\"unixtimestamp\" format=\"jsonf\")\n";
    }
  }

  private final ChildProcess process;

  private RsyslogEdge(ChildProcess process) {
    this.process = process;
  }

  /**
   * Starts rsyslogd in the foreground in {@code dir}, writing {@code body}, and waits until it
   * holds {@code target}'s port. Call {@link #checkInstalled} once first: it names a missing
   * package, where a start that fails shows only the tail of rsyslogd's log.
   */
  static RsyslogEdge start(Variant.Target target, Body body, Path dir) {
    Path rsyslogd = locateRsyslogd();
    Path conf = writeConfig(target, body, dir);
    Path log = dir.resolve("rsyslogd.log");
    ChildProcess process =
        ChildProcess.start(
            "rsyslogd",
            List.of(
                rsyslogd.toString(),
                "-n",
                "-C",
                "-f",
                conf.toString(),
                "-i",
                dir.resolve("rsyslogd.pid").toString()),
            dir,
            log);
    RsyslogEdge edge = new RsyslogEdge(process);
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!portTaken(target.protocol(), target.port())) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.kill();
        throw new BenchException(
            "rsyslogd did not listen on "
                + target.protocol().flagName()
                + " port "
                + target.port()
                + " within "
                + START_TIMEOUT.toSeconds()
                + " s: "
                + process.logTail(5)
                + " (log: "
                + log
                + ")");
      }
      sleepMillis(100);
    }
    return edge;
  }

  /**
   * Fails, in one line naming the package to install, when rsyslogd or its omkafka module is
   * missing: for a run with an rsyslog variant, before its broker starts. Writes a configuration
   * for {@code protocol} and {@code body} in {@code dir}.
   */
  static void checkInstalled(Protocol protocol, Body body, Path dir) {
    checkConfig(
        locateRsyslogd(),
        writeConfig(new Variant.Target("127.0.0.1:9092", "check", 514, protocol), body, dir),
        dir);
  }

  /**
   * Writes rsyslog's configuration for {@code target} and {@code body} in {@code dir}; returns its
   * path.
   */
  private static Path writeConfig(Variant.Target target, Body body, Path dir) {
    Path conf = dir.resolve("rsyslog.conf");
    try {
      Files.createDirectories(dir.resolve("work"));
      Files.writeString(conf, config(target, body, dir.resolve("work")));
    } catch (IOException e) {
      throw new BenchException(
          "could not write rsyslog's configuration in " + dir + ": " + e.getMessage(), e);
    }
    return conf;
  }

  /**
   * rsyslog's configuration for {@code target}, writing {@code body}, its state in {@code workDir}.
   */
  static String config(Variant.Target target, Body body, Path workDir) {
    String input =
        target.protocol() == Protocol.UDP
            ? "module(load=\"imudp\")\n"
                + "input(type=\"imudp\" address=\"127.0.0.1\" port=\""
                + target.port()
                + "\" ruleset=\"kafka\""
                + " rcvbufSize=\""
                + udpReceiveBufferBytes()
                + "\")\n"
            : "module(load=\"imtcp\")\n"
                + "input(type=\"imtcp\" address=\"127.0.0.1\" port=\""
                + target.port()
                + "\" ruleset=\"kafka\")\n";
    return "# Written by flafka bench edge (an rsyslog variant).\n"
        + "global(workDirectory=\""
        + workDir
        + "\" maxMessageSize=\"64k\")\n"
        + input
        + "module(load=\"omkafka\")\n"
        + body.template
        + "ruleset(name=\"kafka\") {\n"
        + "  action(type=\"omkafka\" broker=[\""
        + target.bootstrapServers()
        + "\"] topic=\""
        + target.topic()
        + "\" template=\"body\" partitions.auto=\"on\"\n"
        + "         confParam=[\"compression.codec=snappy\", \"queue.buffering.max.ms=10\"]\n"
        + "         topicConfParam=[\"request.required.acks=-1\"])\n"
        + "}\n";
  }

  /**
   * The UDP receive buffer ours gets: the edge template's request, capped at net.core.rmem_max as
   * the kernel caps ours. rsyslogd run as root asks with SO_RCVBUFFORCE, which passes that cap, and
   * so got four times our buffer on a host with the default cap: the comparison measured the
   * buffers, not the readers.
   */
  static long udpReceiveBufferBytes() {
    long asked =
        ((Number) AgentTemplates.defaults(Tier.EDGE).get("edge_udp_receive_buffer_bytes"))
            .longValue();
    return Math.min(asked, rmemMax().orElse(asked));
  }

  /** Read as a stream to its end: procfs reports sizes that whole-file reads trust. */
  private static OptionalLong rmemMax() {
    try (InputStream in = Files.newInputStream(Path.of("/proc/sys/net/core/rmem_max"))) {
      return OptionalLong.of(
          Long.parseLong(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim()));
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  private static Path locateRsyslogd() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "rsyslogd"))) {
        return Path.of(dir, "rsyslogd");
      }
    }
    return RSYSLOGD_CANDIDATES.stream()
        .filter(Files::isExecutable)
        .findFirst()
        .orElseThrow(
            () ->
                new BenchException(
                    "the rsyslog variant needs rsyslogd, which is not on PATH or in /usr/sbin: "
                        + INSTALL_HINT));
  }

  /**
   * {@code rsyslogd -N1}: exits non-zero, naming the problem, when a module such as omkafka cannot
   * load.
   */
  private static void checkConfig(Path rsyslogd, Path conf, Path dir) {
    // To a file, not a pipe: reading a pipe to its end would wait out a hung rsyslogd past the
    // timeout.
    Path checkLog = dir.resolve("rsyslogd-check.log");
    try {
      Process check =
          new ProcessBuilder(rsyslogd.toString(), "-N1", "-f", conf.toString())
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(checkLog.toFile())
              .start();
      if (!check.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        check.destroyForcibly();
        throw new BenchException(
            "rsyslogd -N1 -f "
                + conf
                + " did not finish within "
                + START_TIMEOUT.toSeconds()
                + " s");
      }
      String output = Files.readString(checkLog, StandardCharsets.UTF_8);
      if (check.exitValue() != 0) {
        String error =
            output
                .lines()
                .filter(line -> line.contains("error") || line.contains("could not"))
                .findFirst()
                .orElse(output.strip());
        throw new BenchException(
            "rsyslogd refused the rsyslog variant's configuration ("
                + conf
                + "): "
                + error
                + (output.contains("omkafka") ? "; " + INSTALL_HINT : ""));
      }
    } catch (IOException e) {
      throw new BenchException(
          "could not run " + rsyslogd + ": " + e.getMessage() + "; " + INSTALL_HINT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BenchException("interrupted while checking rsyslog's configuration", e);
    }
  }

  /** Whether something holds {@code port} on loopback: binding it ourselves fails. */
  private static boolean portTaken(Protocol protocol, int port) {
    InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    try (Closeable probe =
        protocol == Protocol.UDP ? new DatagramSocket(address) : bindTcp(address)) {
      return false;
    } catch (BindException e) {
      return true;
    } catch (IOException e) {
      throw new BenchException("could not probe loopback port " + port + ": " + e.getMessage(), e);
    }
  }

  private static ServerSocket bindTcp(InetSocketAddress address) throws IOException {
    ServerSocket socket = new ServerSocket();
    try {
      socket.bind(address);
      return socket;
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  private static void sleepMillis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BenchException("interrupted", e);
    }
  }

  @Override
  public long pid() {
    return process.pid();
  }

  @Override
  public Duration cpuTime() {
    return process.cpuTime();
  }

  @Override
  public boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void kill() {
    process.kill();
  }

  @Override
  public Path log() {
    return process.log();
  }

  @Override
  public OptionalInt boundPort() {
    return OptionalInt.empty();
  }

  @Override
  public Counts counts() {
    return Counts.NONE;
  }

  @Override
  public ThreadCpu.ThreadGroups threadGroups() {
    return THREAD_GROUPS;
  }

  @Override
  public boolean isJvm() {
    return false;
  }
}
