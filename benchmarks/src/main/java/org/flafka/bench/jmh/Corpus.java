package org.flafka.bench.jmh;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * A deterministic mixed syslog corpus, the same for every parser in a run: the formats an edge
 * agent really receives, 100 to 400 bytes each (a few junk lines are shorter), built from templates
 * modelled on real device output with varied hosts, addresses, counters and message lengths. Every
 * timestamp lies between 06:00 and 07:00 UTC on 2026-11-21, the hour before {@link #RECEIVED}, as
 * in live traffic.
 *
 * <p>Mix (by message count): RFC 5424 with structured data 20%, RFC 5424 without 10%, RFC 3164
 * (Linux daemons) 25%, Cisco ASA 15%, Cisco PIX 5%, Cisco IOS 15%, junk 10% (no PRI, a bad PRI, a
 * PRI and nothing else, Latin-1 bytes, an application writing plain text to the port). Messages
 * carry no framing (no trailing LF).
 */
public final class Corpus {

  /** Number of messages; a fixed size keeps runs comparable. */
  public static final int SIZE = 1024;

  /** The receive time to parse the corpus with (epoch ms): 2026-11-21T07:00:00Z. */
  public static final long RECEIVED = 1795244400000L;

  private static final String[] WORDS = {
    "session",
    "closed",
    "for",
    "user",
    "root",
    "interface",
    "changed",
    "state",
    "to",
    "up",
    "down",
    "connection",
    "timeout",
    "retransmit",
    "peer",
    "neighbor",
    "adjacency",
    "policy",
    "deny",
    "permit",
    "packet",
    "bytes",
    "duration",
    "reason",
    "idle",
    "reset",
    "flow",
    "queue",
    "threshold",
    "exceeded",
  };

  private Corpus() {}

  /** The corpus for {@code seed}: {@link #SIZE} messages as raw bytes. */
  public static byte[][] messages(long seed) {
    Random random = new Random(seed);
    byte[][] messages = new byte[SIZE][];
    for (int i = 0; i < SIZE; i++) {
      int targetLength = 100 + random.nextInt(301);
      int kind = random.nextInt(100);
      byte[] message;
      if (kind < 20) {
        message = rfc5424WithStructuredData(random, targetLength);
      } else if (kind < 30) {
        message = rfc5424Plain(random, targetLength);
      } else if (kind < 55) {
        message = rfc3164(random, targetLength);
      } else if (kind < 70) {
        message = asa(random, targetLength);
      } else if (kind < 75) {
        message = pix(random, targetLength);
      } else if (kind < 90) {
        message = ios(random, targetLength);
      } else {
        message = junk(random, targetLength);
      }
      messages[i] = message;
    }
    return messages;
  }

  private static byte[] rfc5424WithStructuredData(Random random, int targetLength) {
    // Java-style 6 to 9 fractional digits half the time: what log4j and java.time emit.
    String fraction = random.nextBoolean() ? ".123456" : ".123456789";
    String head =
        "<"
            + pri(random)
            + ">1 2026-11-21T06:"
            + twoDigits(random.nextInt(60))
            + ":"
            + twoDigits(random.nextInt(60))
            + fraction
            + (random.nextBoolean() ? "Z" : "+01:00")
            + " "
            + host(random)
            + " "
            + pick(random, "evntslog", "sshd", "kernel", "app-server", "flumeagent")
            + " "
            + random.nextInt(65536)
            + " ID"
            + random.nextInt(100)
            + " [exampleSDID@32473 iut=\""
            + random.nextInt(10)
            + "\" eventSource=\"Application\" eventID=\""
            + random.nextInt(10000)
            + "\"][origin ip=\""
            + ip(random)
            + "\"] ";
    // A third of them start the message with a UTF-8 BOM, as RFC 5424 allows.
    String bom = random.nextInt(3) == 0 ? "\uFEFF" : "";
    return padded(head + bom + "An application event log entry: ", random, targetLength);
  }

  private static byte[] rfc5424Plain(Random random, int targetLength) {
    String head =
        "<"
            + pri(random)
            + ">1 2026-11-21T06:"
            + twoDigits(random.nextInt(60))
            + ":"
            + twoDigits(random.nextInt(60))
            + ".003Z "
            + host(random)
            + " su - ID47 - ";
    return padded(head + "'su root' failed for lonvick on /dev/pts/8 ", random, targetLength);
  }

  private static byte[] rfc3164(Random random, int targetLength) {
    String head =
        "<"
            + pri(random)
            + ">"
            + bsdTimestamp(random)
            + " "
            + host(random)
            + " "
            + pick(random, "sshd[", "CRON[", "systemd[", "postfix/smtpd[", "kernel: [")
            + random.nextInt(40000)
            + "]: ";
    return padded(
        head
            + pick(
                random,
                "Accepted publickey for deploy from " + ip(random) + " port 51514 ssh2 ",
                "pam_unix(cron:session): session opened for user root by (uid=0) ",
                "Started Session " + random.nextInt(9999) + " of user admin. "),
        random,
        targetLength);
  }

  private static byte[] asa(Random random, int targetLength) {
    String message =
        "%ASA-6-302013: Built outbound TCP connection "
            + random.nextInt(1_000_000)
            + " for outside:"
            + ip(random)
            + "/443 ("
            + ip(random)
            + "/443) to inside:"
            + ip(random)
            + "/"
            + (1024 + random.nextInt(60000))
            + " ("
            + ip(random)
            + "/"
            + (1024 + random.nextInt(60000))
            + ") ";
    String head;
    switch (random.nextInt(3)) {
      case 0: // logging timestamp + logging device-id hostname
        head =
            "<166>Nov 21 2026 06:"
                + twoDigits(random.nextInt(60))
                + ":"
                + twoDigits(random.nextInt(60))
                + " "
                + host(random)
                + " : ";
        break;
      case 1: // no timestamp, no device id: the ASA default
        head = "<166>";
        break;
      default: // EMBLEM-style colon and zone
        head =
            "<166>:Nov 21 06:"
                + twoDigits(random.nextInt(60))
                + ":"
                + twoDigits(random.nextInt(60))
                + " UTC: ";
        break;
    }
    return padded(head + message, random, targetLength);
  }

  private static byte[] pix(Random random, int targetLength) {
    String head =
        random.nextBoolean() ? "<167>" + bsdTimestamp(random) + " " + ip(random) + " " : "<166>";
    return padded(
        head
            + "%PIX-7-710005: UDP request discarded from "
            + ip(random)
            + "/"
            + random.nextInt(65536)
            + " to outside:255.255.255.255/"
            + random.nextInt(65536)
            + " ",
        random,
        targetLength);
  }

  private static byte[] ios(Random random, int targetLength) {
    String stamp =
        "Nov 21 06:"
            + twoDigits(random.nextInt(60))
            + ":"
            + twoDigits(random.nextInt(60))
            + "."
            + random.nextInt(1000);
    String head;
    switch (random.nextInt(3)) {
      case 0: // sequence number, '*' = clock not synchronised
        head = "<189>" + random.nextInt(1_000_000) + ": *" + stamp + ": ";
        break;
      case 1: // sequence number, origin-id hostname, zone
        head = "<187>" + random.nextInt(100_000) + ": " + host(random) + ": " + stamp + " UTC: ";
        break;
      default: // relayed through a BSD syslog daemon that prepended its own stamp and the sender's
        // address
        head =
            "<189>"
                + bsdTimestamp(random)
                + " "
                + ip(random)
                + " "
                + random.nextInt(100_000)
                + ": "
                + stamp
                + " CET: ";
        break;
    }
    return padded(
        head
            + pick(
                random,
                "%LINEPROTO-5-UPDOWN: Line protocol on Interface GigabitEthernet0/"
                    + random.nextInt(48)
                    + ", changed state to up ",
                "%SEC-6-IPACCESSLOGP: list 101 denied tcp "
                    + ip(random)
                    + "(1234) -> "
                    + ip(random)
                    + "(80), 1 packet ",
                "%SYS-3-CPUHOG: Task is running for (2004)msecs, more than (2000)msecs (0/0),process = Exec. "),
        random,
        targetLength);
  }

  private static byte[] junk(Random random, int targetLength) {
    switch (random.nextInt(5)) {
      case 0:
        return padded(
            "java.lang.IllegalStateException: connection pool exhausted at ", random, targetLength);
      case 1:
        return padded("<999>not a priority anyone can have ", random, targetLength);
      case 2:
        return padded("<13>", random, 0);
      case 3:
        {
          // Latin-1 bytes that are not valid UTF-8 (a device writing ISO-8859-1).
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          byte[] head =
              ("<14>" + bsdTimestamp(random) + " printer-3 lpd: job for ")
                  .getBytes(StandardCharsets.US_ASCII);
          out.write(head, 0, head.length);
          byte[] latin1 =
              "J\u00fcrgen M\u00fcller, Stra\u00dfe ".getBytes(StandardCharsets.ISO_8859_1);
          out.write(latin1, 0, latin1.length);
          byte[] tail = padded("", random, targetLength - out.size());
          out.write(tail, 0, tail.length);
          return out.toByteArray();
        }
      default:
        return padded(
            "GET /index.html HTTP/1.1 Host: " + ip(random) + " User-Agent: curl/8.5.0 ",
            random,
            targetLength);
    }
  }

  /** {@code head} plus random words up to about {@code targetLength} bytes, as UTF-8. */
  private static byte[] padded(String head, Random random, int targetLength) {
    StringBuilder text = new StringBuilder(head);
    while (text.length() < targetLength) {
      text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
    }
    int end = text.length();
    while (end > head.length() && text.charAt(end - 1) == ' ') {
      end--;
    }
    return text.substring(0, end).getBytes(StandardCharsets.UTF_8);
  }

  private static int pri(Random random) {
    return random.nextInt(192);
  }

  /** An RFC 3164 stamp in the hour before the benchmarks' receive time, as live traffic carries. */
  private static String bsdTimestamp(Random random) {
    return "Nov 21 06:" + twoDigits(random.nextInt(60)) + ":" + twoDigits(random.nextInt(60));
  }

  private static String host(Random random) {
    return pick(random, "edge-router-", "core-sw-", "asa-fw-", "web-", "db-")
        + random.nextInt(200)
        + (random.nextBoolean() ? ".site" + random.nextInt(120) + ".example.net" : "");
  }

  private static String ip(Random random) {
    return "10."
        + random.nextInt(256)
        + "."
        + random.nextInt(256)
        + "."
        + (1 + random.nextInt(254));
  }

  private static String twoDigits(int value) {
    return value < 10 ? "0" + value : Integer.toString(value);
  }

  private static String pick(Random random, String... choices) {
    return choices[random.nextInt(choices.length)];
  }
}
