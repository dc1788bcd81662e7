package org.flafka.edge;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * UDP loss the kernel sees and the source cannot: datagrams dropped because a socket's receive buffer was full.
 * Linux only (reads /proc); elsewhere {@link #poll} reports nothing. Public for {@code flafka bench edge}, which
 * reads the same drops for any agent's socket, stock Flume's included.
 * <ul>
 *   <li>per socket: the {@code drops} column of /proc/net/udp and /proc/net/udp6 for sockets bound to our port;</li>
 *   <li>host-wide: {@code RcvbufErrors} and {@code InErrors} of the {@code Udp:} lines of /proc/net/snmp, as deltas
 *       since this object was made (they include every UDP socket on the host).</li>
 * </ul>
 */
public final class UdpKernelStats {

  private static final List<Path> SOCKET_TABLES = List.of(Paths.get("/proc/net/udp"), Paths.get("/proc/net/udp6"));
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
   * Reads the kernel's counters into {@code counter}, and returns how many UDP sockets that same reading found bound
   * to the port (any process's; 0 when the tables cannot be read).
   */
  int poll(SyslogSourceCounter counter) {
    if (!available()) {
      return 0;
    }
    List<String[]> rows = socketRows(port);
    counter.setUdpSocketDrops(rows == null ? 0 : drops(rows));
    long[] host = readHostErrors();
    if (host != null) {
      counter.setUdpHostErrors(host[0] - hostBaseline[0], host[1] - hostBaseline[1]);
    }
    return rows == null ? 0 : rows.size();
  }

  /**
   * Datagrams the kernel dropped at the UDP sockets bound to {@code port} (IPv4 and IPv6) since each opened, or -1
   * when neither table can be read (not Linux).
   */
  public static long socketDrops(int port) {
    List<String[]> rows = socketRows(port);
    return rows == null ? -1 : drops(rows);
  }

  /**
   * Memory the kernel holds for datagrams queued at the UDP sockets bound to {@code port}, not yet read (the
   * {@code rx_queue} field); 0 when the tables cannot be read.
   */
  static long queuedBytes(int port) {
    List<String[]> rows = socketRows(port);
    long queued = 0;
    if (rows != null) {
      for (String[] row : rows) {
        String queues = row[4];
        queued += Long.parseLong(queues.substring(queues.indexOf(':') + 1), 16);
      }
    }
    return queued;
  }

  /** How many UDP sockets (IPv4 and IPv6, any process) are bound to {@code port}; 0 when the tables cannot be read. */
  static int socketsOn(int port) {
    List<String[]> rows = socketRows(port);
    return rows == null ? 0 : rows.size();
  }

  /** The rows of /proc/net/udp and /proc/net/udp6 bound to {@code port}, or null when neither can be read. */
  private static List<String[]> socketRows(int port) {
    List<String[]> rows = null;
    for (Path table : SOCKET_TABLES) {
      String text = read(table);
      if (text != null) {
        rows = rows == null ? new ArrayList<>() : rows;
        rows.addAll(rowsOn(text, port));
      }
    }
    return rows;
  }

  private static long[] readHostErrors() {
    String text = read(SNMP);
    return text == null ? null : hostErrors(text);
  }

  /**
   * The content of a /proc file, or null when it cannot be read. Read as a stream to its end: procfs reports sizes
   * that {@code Files.readString} trusts (it returns "4" for /proc/sys/net/core/rmem_max = 4194304).
   */
  static String read(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException | SecurityException e) {
      return null;
    }
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
   * The rows of a /proc/net/udp table whose local address has {@code port}, split into fields. A row: {@code sl
   * local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ref pointer drops},
   * addresses as {@code HEXIP:HEXPORT}.
   */
  static List<String[]> rowsOn(String table, int port) {
    List<String[]> rows = new ArrayList<>();
    String[] lines = table.split("\n");
    for (int i = 1; i < lines.length; i++) {
      String[] fields = lines[i].trim().split("\\s+");
      if (fields.length < 13) {
        continue;
      }
      String local = fields[1];
      int colon = local.lastIndexOf(':');
      if (colon > 0 && Integer.parseInt(local.substring(colon + 1), 16) == port) {
        rows.add(fields);
      }
    }
    return rows;
  }

  /** {RcvbufErrors, InErrors} from the {@code Udp:} header and value lines of /proc/net/snmp, or null. */
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
