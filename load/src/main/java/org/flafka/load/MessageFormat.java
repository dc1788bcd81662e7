package org.flafka.load;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The kinds of message the load generator sends, each as devices in the field write it. Every
 * message is a header in the format's shape, then the {@link Mark}, then filler text, cut to the
 * exact size asked for. Eight variants per format differ in priority, program or message id, so a
 * parser sees more than one line shape.
 */
public enum MessageFormat {
  /** {@code <165>1 2026-11-21T06:28:00.123456Z dev-000042.site sshd 1000 ID47 - MARK text}. */
  RFC5424("rfc5424") {
    @Override
    String header(int variant, ZonedDateTime time, String host) {
      String sd = variant % 2 == 1 ? "[flafka@32473 variant=\"" + variant + "\"]" : "-";
      return "<"
          + RFC5424_PRI[variant]
          + ">1 "
          + RFC5424_TIME.format(time)
          + " "
          + host
          + " "
          + APPS[variant]
          + " "
          + (1000 + 137 * variant)
          + " "
          + MSGIDS[variant]
          + " "
          + sd
          + " ";
    }
  },
  /** {@code <34>Nov 21 06:28:00 dev-000042.site sshd[1000]: MARK text}. */
  RFC3164("rfc3164") {
    @Override
    String header(int variant, ZonedDateTime time, String host) {
      return "<"
          + RFC3164_PRI[variant]
          + ">"
          + RFC3164_TIME.format(time)
          + " "
          + host
          + " "
          + APPS[variant]
          + "["
          + (1000 + 137 * variant)
          + "]: ";
    }
  },
  /**
   * Cisco ASA with timestamps and device id: {@code <166>Nov 21 2026 06:28:00 dev-000042.site :
   * %ASA-6-302013: MARK text}.
   */
  ASA("asa") {
    @Override
    String header(int variant, ZonedDateTime time, String host) {
      return "<"
          + (LOCAL4 + ASA_SEVERITY[variant])
          + ">"
          + ASA_TIME.format(time)
          + " "
          + host
          + " : %ASA-"
          + ASA_SEVERITY[variant]
          + "-"
          + ASA_IDS[variant]
          + ": ";
    }
  },
  /**
   * Cisco PIX as shipped, without timestamp or host name: {@code <166>%PIX-6-302015: MARK text}.
   */
  PIX("pix") {
    @Override
    String header(int variant, ZonedDateTime time, String host) {
      return "<"
          + (LOCAL4 + ASA_SEVERITY[variant])
          + ">%PIX-"
          + ASA_SEVERITY[variant]
          + "-"
          + ASA_IDS[variant]
          + ": ";
    }
  },
  /**
   * Cisco IOS with sequence numbers and origin-id hostname: {@code <189>000123: dev-000042.site:
   * Nov 21 06:28:00.123 UTC: %SYS-5-CONFIG_I: MARK text}.
   */
  IOS("ios") {
    @Override
    String header(int variant, ZonedDateTime time, String host) {
      return "<"
          + (LOCAL7 + IOS_SEVERITY[variant])
          + ">"
          + String.format("%06d", 123 + 1000 * variant)
          + ": "
          + host
          + ": "
          + IOS_TIME.format(time)
          + " UTC: %"
          + IOS_MNEMONICS[variant]
          + ": ";
    }
  },
  /**
   * Not syslog at all (no priority, stray bytes, invalid UTF-8): must be kept whole with parse=raw.
   */
  JUNK("junk") {
    @Override
    String header(int variant, ZonedDateTime time, String host) {
      return JUNK_PREFIXES[variant];
    }
  };

  /** How many header shapes each format has. */
  public static final int VARIANTS = 8;

  /**
   * Host names of simulated devices: {@code dev-} and the device number in six digits, so they
   * patch in place.
   */
  static final String HOST_PREFIX = "dev-";

  static final String HOST_SUFFIX = ".site";

  private static final int LOCAL4 = 20 * 8;
  private static final int LOCAL7 = 23 * 8;
  private static final int[] RFC5424_PRI = {165, 134, 30, 86, 190, 13, 187, 38};
  private static final int[] RFC3164_PRI = {34, 13, 86, 30, 38, 133, 4, 165};
  private static final String[] APPS = {
    "sshd", "kernel", "nginx", "crond", "bgpd", "snmpd", "systemd", "ntpd"
  };
  private static final String[] MSGIDS = {"ID47", "-", "AUTH", "LINK", "-", "CFG", "-", "HTTP"};
  private static final int[] ASA_SEVERITY = {6, 6, 4, 6, 7, 6, 5, 6};
  private static final String[] ASA_IDS = {
    "302013", "302014", "106023", "305011", "710003", "113004", "111008", "302015"
  };
  private static final int[] IOS_SEVERITY = {3, 5, 5, 6, 5, 5, 5, 5};
  private static final String[] IOS_MNEMONICS = {
    "LINK-3-UPDOWN",
    "SYS-5-CONFIG_I",
    "LINEPROTO-5-UPDOWN",
    "SEC-6-IPACCESSLOGP",
    "OSPF-5-ADJCHG",
    "BGP-5-ADJCHANGE",
    "DUAL-5-NBRCHANGE",
    "SSH-5-SSH2_USERAUTH"
  };

  /** Read as ISO-8859-1, so \u00c3( is the invalid UTF-8 pair C3 28 on the wire. */
  private static final String[] JUNK_PREFIXES = {
    "\u00c3( junk ",
    "GET /favicon.ico HTTP/1.1 ",
    "<999>broken pri ",
    "{\"json\":\"not syslog\"} ",
    "\t  ",
    "<13",
    "%%%% ",
    "\u00ff\u00fe\u00fd "
  };

  private static final DateTimeFormatter RFC5424_TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT);
  private static final DateTimeFormatter RFC3164_TIME =
      DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss", Locale.ENGLISH);
  private static final DateTimeFormatter ASA_TIME =
      DateTimeFormatter.ofPattern("MMM dd uuuu HH:mm:ss", Locale.ENGLISH);
  private static final DateTimeFormatter IOS_TIME =
      DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss.SSS", Locale.ENGLISH);

  /** Words of network-device logs, for filler that compresses roughly like real syslog. */
  private static final String[] WORDS = {
    "interface",
    "GigabitEthernet0/1",
    "changed",
    "state",
    "to",
    "up",
    "down",
    "src",
    "dst",
    "tcp",
    "udp",
    "icmp",
    "deny",
    "permit",
    "session",
    "user",
    "admin",
    "login",
    "failed",
    "accepted",
    "port",
    "proto",
    "bytes",
    "duration",
    "policy",
    "acl-outside",
    "inside",
    "outside",
    "vlan",
    "neighbor",
    "established",
    "reset",
    "timeout",
    "for",
    "from",
    "on",
    "by",
    "with",
    "connection",
    "flow",
    "packet",
    "dropped",
    "rate",
    "limit",
    "exceeded",
    "config",
    "saved",
    "route",
    "peer",
    "AS65001"
  };

  private final String flagName;

  MessageFormat(String flagName) {
    this.flagName = flagName;
  }

  /** The name used in {@code --mix} and in reports. */
  public String flagName() {
    return flagName;
  }

  /** The format called {@code name} in {@code --mix}, or null. */
  public static MessageFormat byFlagName(String name) {
    for (MessageFormat format : values()) {
      if (format.flagName.equals(name)) {
        return format;
      }
    }
    return null;
  }

  /**
   * The text before the mark. {@code host} is the device's host name (absent from formats that
   * carry none).
   */
  abstract String header(int variant, ZonedDateTime time, String host);

  /** The host name of simulated device {@code device}, e.g. {@code dev-000042.site}. */
  public static String hostname(int device) {
    return String.format("%s%06d%s", HOST_PREFIX, device, HOST_SUFFIX);
  }

  /**
   * A message of {@code size} bytes from device 0, sequence 0, for variant {@code variant}, stamped
   * with {@code epochMillis}; shorter sizes are prefixes of longer ones. The filler is drawn from
   * {@code seed}.
   */
  Template template(int variant, long epochMillis, int size, long seed) {
    ZonedDateTime time = ZonedDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    String host = hostname(0);
    byte[] header = header(variant, time, host).getBytes(StandardCharsets.ISO_8859_1);
    int hostAt = indexOf(header, host.getBytes(StandardCharsets.US_ASCII));
    int markAt = header.length;
    byte[] bytes = new byte[Math.max(size, markAt + Mark.LENGTH)];
    System.arraycopy(header, 0, bytes, 0, header.length);
    Mark.write(bytes, markAt, 0, 0);
    fill(bytes, markAt + Mark.LENGTH, new SplittableRandom(seed * 31 + ordinal() * 8L + variant));
    return new Template(bytes, hostAt < 0 ? -1 : hostAt + HOST_PREFIX.length(), markAt);
  }

  /**
   * Printable words and spaces to the end of {@code bytes}: no line breaks, so newline framing
   * stays valid.
   */
  private static void fill(byte[] bytes, int from, SplittableRandom random) {
    int at = from;
    while (at < bytes.length) {
      bytes[at++] = ' ';
      String word = WORDS[random.nextInt(WORDS.length)];
      for (int n = 0; n < word.length() && at < bytes.length; n++) {
        bytes[at++] = (byte) word.charAt(n);
      }
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int at = 0; at <= haystack.length - needle.length; at++) {
      for (int n = 0; n < needle.length; n++) {
        if (haystack[at + n] != needle[n]) {
          continue outer;
        }
      }
      return at;
    }
    return -1;
  }

  /**
   * One prepared message of a format: the bytes at the largest size asked for, and where the
   * per-message digits go. A message of size n is its first n bytes with the device and sequence
   * digits patched in.
   */
  static final class Template {
    final byte[] bytes;

    /** Offset of the six device digits of the host name, or -1 for formats without a host name. */
    final int hostDigitsAt;

    /** Offset of the mark. */
    final int markAt;

    Template(byte[] bytes, int hostDigitsAt, int markAt) {
      this.bytes = bytes;
      this.hostDigitsAt = hostDigitsAt;
      this.markAt = markAt;
    }

    /** The smallest message that still holds the whole mark. */
    int minSize() {
      return markAt + Mark.LENGTH;
    }

    /**
     * Writes the first {@code size} bytes with the digits of {@code device} and {@code sequence}.
     */
    void write(byte[] target, int offset, int size, int device, long sequence) {
      System.arraycopy(bytes, 0, target, offset, size);
      if (hostDigitsAt >= 0) {
        Mark.writeDigits(target, offset + hostDigitsAt, Mark.DEVICE_DIGITS, device);
      }
      Mark.writeDigits(target, offset + markAt + Mark.DEVICE_OFFSET, Mark.DEVICE_DIGITS, device);
      Mark.writeDigits(
          target, offset + markAt + Mark.SEQUENCE_OFFSET, Mark.SEQUENCE_DIGITS, sequence);
    }
  }
}
