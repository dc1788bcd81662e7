package org.flafka.edge.source;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Linux's socket tables in /proc/net ({@code udp}, {@code udp6}, {@code tcp}, {@code tcp6}): the
 * sockets bound to a port, and what the kernel holds for them that no one has read yet. Where the
 * tables cannot be read (not Linux) the answers say so (null) or count nothing (0).
 */
final class ProcNetSockets {

  static final List<Path> UDP = List.of(Paths.get("/proc/net/udp"), Paths.get("/proc/net/udp6"));
  static final List<Path> TCP = List.of(Paths.get("/proc/net/tcp"), Paths.get("/proc/net/tcp6"));

  /**
   * The {@code st} field of a listening TCP socket: its rx_queue is the accept backlog, not unread
   * data.
   */
  private static final String LISTEN = "0A";

  private static final long POLL_MILLIS = 10;

  private ProcNetSockets() {}

  /**
   * The rows of {@code tables} whose local address has {@code port}, split into fields, or null
   * when none of the tables can be read.
   */
  static List<String[]> rows(List<Path> tables, int port) {
    List<String[]> rows = null;
    for (Path table : tables) {
      String text = read(table);
      if (text != null) {
        rows = rows == null ? new ArrayList<>() : rows;
        rows.addAll(rowsOn(text, port));
      }
    }
    return rows;
  }

  /**
   * The rows of one table whose local address has {@code port}, split into fields. A row: {@code sl
   * local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...},
   * addresses as {@code HEXIP:HEXPORT}; UDP rows end with {@code drops}.
   */
  private static List<String[]> rowsOn(String table, int port) {
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

  /**
   * Bytes of socket memory the kernel holds, received and not yet read, for the sockets bound to
   * {@code port} (the {@code rx_queue} field; listening sockets left out); 0 when the tables cannot
   * be read.
   */
  static long unreadBytes(List<Path> tables, int port) {
    List<String[]> rows = rows(tables, port);
    long unread = 0;
    if (rows != null) {
      for (String[] row : rows) {
        if (!LISTEN.equals(row[3])) {
          String queues = row[4];
          unread += Long.parseLong(queues.substring(queues.indexOf(':') + 1), 16);
        }
      }
    }
    return unread;
  }

  /**
   * Waits, while the sockets are read, until the kernel has held nothing unread for those bound to
   * {@code port} in {@code quietPolls} polls in a row, {@value #POLL_MILLIS} ms apart, or until
   * {@code untilNanos} ({@link System#nanoTime}). Returns what it held at the last poll: 0 when all
   * was read.
   */
  static long awaitRead(List<Path> tables, int port, int quietPolls, long untilNanos) {
    long unread = unreadBytes(tables, port);
    int quiet = unread == 0 ? 1 : 0;
    while (quiet < quietPolls && System.nanoTime() < untilNanos) {
      try {
        TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      unread = unreadBytes(tables, port);
      quiet = unread == 0 ? quiet + 1 : 0;
    }
    return unread;
  }

  /**
   * The content of a /proc file, or null when it cannot be read. Read as a stream to its end:
   * procfs reports sizes that {@code Files.readString} trusts (it returns "4" for
   * /proc/sys/net/core/rmem_max = 4194304).
   */
  static String read(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    } catch (IOException | SecurityException e) {
      return null;
    }
  }
}
