package org.flafka.edge.source;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;

/**
 * UDP loss the kernel sees and the source cannot: datagrams dropped because a socket's receive
 * buffer was full. Linux only (reads /proc); elsewhere {@link #poll} reports nothing. Public for
 * {@code flafka bench edge}, which reads the same drops for any agent's socket, stock Flume's
 * included.
 *
 * <ul>
 *   <li>per socket: the {@code drops} column of /proc/net/udp and /proc/net/udp6 for sockets bound
 *       to our port;
 *   <li>host-wide: {@code RcvbufErrors} and {@code InErrors} of the {@code Udp:} lines of
 *       /proc/net/snmp, as deltas since this object was made (they include every UDP socket on the
 *       host).
 * </ul>
 */
public final class UdpKernelStats {

  private static final Path SNMP = Paths.get("/proc/net/snmp");

  private final int port;
  private final long[] hostBaseline;

  UdpKernelStats(int port) {
    this.port = port;
    this.hostBaseline = readHostErrors();
  }

  /** False when /proc/net/snmp cannot be read (not Linux): the counters then stay 0. */
  boolean available() {
    return hostBaseline != null;
  }

  /**
   * Reads the kernel's counters into {@code counter}, and returns how many UDP sockets that same
   * reading found bound to the port (any process's; 0 when the tables cannot be read).
   */
  int poll(SyslogSourceCounter counter) {
    if (!available()) {
      return 0;
    }
    List<String[]> rows = ProcNetSockets.rows(ProcNetSockets.UDP, port);
    counter.setUdpSocketDrops(rows == null ? 0 : drops(rows));
    long[] host = readHostErrors();
    if (host != null) {
      counter.setUdpHostErrors(host[0] - hostBaseline[0], host[1] - hostBaseline[1]);
    }
    return rows == null ? 0 : rows.size();
  }

  /**
   * Datagrams the kernel dropped at the UDP sockets bound to {@code port} (IPv4 and IPv6) since
   * each opened, or -1 when neither table can be read (not Linux).
   */
  public static long socketDrops(int port) {
    List<String[]> rows = ProcNetSockets.rows(ProcNetSockets.UDP, port);
    return rows == null ? -1 : drops(rows);
  }

  /**
   * How many UDP sockets (IPv4 and IPv6, any process) are bound to {@code port}; 0 when the tables
   * cannot be read.
   */
  static int socketsOn(int port) {
    List<String[]> rows = ProcNetSockets.rows(ProcNetSockets.UDP, port);
    return rows == null ? 0 : rows.size();
  }

  private static long[] readHostErrors() {
    String text = ProcNetSockets.read(SNMP);
    return text == null ? null : hostErrors(text);
  }

  /** Sums the last column ({@code drops}) of /proc/net/udp rows. */
  private static long drops(List<String[]> rows) {
    long drops = 0;
    for (String[] row : rows) {
      drops += Long.parseLong(row[row.length - 1]);
    }
    return drops;
  }

  /**
   * {RcvbufErrors, InErrors} from the {@code Udp:} header and value lines of /proc/net/snmp, or
   * null.
   */
  static long[] hostErrors(String snmp) {
    String[] header = null;
    for (String line : snmp.split("\n")) {
      if (!line.startsWith("Udp: ")) {
        continue;
      }
      String[] fields = line.trim().split("\\s+");
      if (header == null) {
        header = fields;
        continue;
      }
      List<String> names = Arrays.asList(header);
      int rcvbuf = names.indexOf("RcvbufErrors");
      int in = names.indexOf("InErrors");
      if (rcvbuf < 0 || in < 0 || fields.length != header.length) {
        return null;
      }
      return new long[] {Long.parseLong(fields[rcvbuf]), Long.parseLong(fields[in])};
    }
    return null;
  }
}
