package org.flafka.core;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Map;
import org.apache.flume.conf.ConfigurationException;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;
import org.flafka.contract.HdfsKerberos;

/** The settings of {@link HdfsBucketSink}: every key, its default, rule and meaning. */
public final class HdfsBucketSinkConfig {

  /** The token in {@code hdfs.filePrefix} that stands for this machine's host name. */
  static final String LOCALHOST = "%[localhost]";

  public static final String ROOT_CONFIG = "hdfs.root";
  private static final String ROOT_DOC =
      "Directory the dt=/host= buckets are made under, as a Hadoop URI "
          + "(hdfs://nameservice/data/syslog) or a path on the default file system of the agent's Hadoop "
          + "configuration.";

  private static final String ROOT_EXAMPLE = "hdfs://nameservice1/data/syslog";

  public static final String TIME_ZONE_CONFIG = "hdfs.timeZone";
  private static final String TIME_ZONE_DOC =
      "Time zone of the dt= buckets (a Java zone id): the date of the "
          + "event's timestamp header in this zone.";

  public static final String FILE_PREFIX_CONFIG = "hdfs.filePrefix";
  private static final String FILE_PREFIX_DOC =
      "Start of every file name, unique per agent, host and sink; "
          + LOCALHOST
          + " is replaced by this machine's host name, as in Flume's HDFS sink.";

  private static final String FILE_PREFIX_EXAMPLE = "core-%[localhost]-hdfs0";

  public static final String CODEC_CONFIG = "hdfs.codeC";
  private static final String CODEC_DOC =
      "snappy: Hadoop's SnappyCodec, files named .snappy, one compressed "
          + "block per batch and file; none: plain text, files named .log.";

  public static final String BATCH_SIZE_CONFIG = "hdfs.batchSize";
  public static final int DEFAULT_BATCH_SIZE = 1000;
  private static final String BATCH_SIZE_DOC =
      "Most events taken from the channel in one transaction; every "
          + "file written in it is flushed (hflush) before the transaction commits.";

  public static final String ROLL_SIZE_CONFIG = "hdfs.rollSize";
  private static final String ROLL_SIZE_DOC =
      "Bytes of text (before compression) after which a file is closed "
          + "and a new one started; 0: never by size.";

  public static final String ROLL_INTERVAL_CONFIG = "hdfs.rollInterval";
  private static final String ROLL_INTERVAL_DOC =
      "Seconds after which an open file is closed; 0: never by age.";

  public static final String IDLE_TIMEOUT_CONFIG = "hdfs.idleTimeout";
  private static final String IDLE_TIMEOUT_DOC =
      "Seconds without a write after which a file is closed; 0: never.";

  public static final String MAX_OPEN_FILES_CONFIG = "hdfs.maxOpenFiles";
  private static final String MAX_OPEN_FILES_DOC =
      "Most files open at once; opening one more closes the one " + "written least recently.";

  public static final String RETRY_INTERVAL_CONFIG = "hdfs.retryInterval";
  private static final String RETRY_INTERVAL_DOC =
      "Seconds between attempts to close and rename a file whose "
          + "close failed (HDFS unreachable); it keeps its in-use name until then.";

  public static final String KERBEROS_PRINCIPAL_CONFIG = "hdfs.kerberosPrincipal";
  private static final String KERBEROS_PRINCIPAL_DOC =
      "Kerberos principal the sink logs in to HDFS as, with its realm "
          + "(flafka-core/_HOST@EXAMPLE.COM); "
          + HdfsKerberos.HOST_PLACEHOLDER
          + " is replaced by this machine's fully qualified host name in lower case. Empty: no login "
          + "of the sink's own (simple authentication, or whatever the agent's Hadoop configuration "
          + "does). The same key as Flume's HDFS sink.";

  public static final String KERBEROS_KEYTAB_CONFIG = "hdfs.kerberosKeytab";
  private static final String KERBEROS_KEYTAB_DOC =
      "Keytab of hdfs.kerberosPrincipal, readable by the agent's user only. While it is missing or "
          + "the login fails, the sink takes nothing from its channel and logs one line naming the "
          + "setting, trying again every hdfs.retryInterval; the ticket is renewed from it before "
          + "it expires.";

  public static final String NAMENODE_PRINCIPAL_CONFIG = "hdfs.namenodePrincipal";
  private static final String NAMENODE_PRINCIPAL_DOC =
      "The NameNodes' Kerberos principal (Hadoop's dfs.namenode.kerberos.principal, e.g. "
          + "hdfs/_HOST@EXAMPLE.COM, _HOST being the NameNode's host). Empty: from the agent's "
          + "Hadoop configuration (hdfs-site.xml), which a Kerberized cluster's client needs.";

  public static final String DATA_TRANSFER_PROTECTION_CONFIG = "hdfs.dataTransferProtection";
  private static final String DATA_TRANSFER_PROTECTION_DOC =
      "Hadoop's dfs.data.transfer.protection, as the cluster's DataNodes require it: "
          + "authentication, integrity or privacy (encrypted). Empty: from the agent's Hadoop "
          + "configuration.";

  /** How errors name the sink when its name is not known. */
  static final String COMPONENT = "HDFS bucket sink";

  public static final ConfigDef DEFINITION =
      new ConfigDef(Kind.SINK)
          .define(
              ROOT_CONFIG,
              Type.STRING,
              ConfigDef.NO_DEFAULT,
              ConfigDef.example(ROOT_EXAMPLE),
              ROOT_DOC)
          .define(TIME_ZONE_CONFIG, Type.STRING, "UTC", zoneId(), TIME_ZONE_DOC)
          .define(
              FILE_PREFIX_CONFIG,
              Type.STRING,
              ConfigDef.NO_DEFAULT,
              ConfigDef.example(FILE_PREFIX_EXAMPLE),
              FILE_PREFIX_DOC)
          .define(CODEC_CONFIG, Type.STRING, "snappy", ConfigDef.oneOf("snappy", "none"), CODEC_DOC)
          .define(
              BATCH_SIZE_CONFIG,
              Type.INT,
              DEFAULT_BATCH_SIZE,
              ConfigDef.between(1, 1_000_000),
              BATCH_SIZE_DOC)
          .define(ROLL_SIZE_CONFIG, Type.INT, 130023424, ConfigDef.atLeast(0), ROLL_SIZE_DOC)
          .define(
              ROLL_INTERVAL_CONFIG,
              Type.INT,
              3600,
              ConfigDef.between(0, 31 * 86400),
              ROLL_INTERVAL_DOC)
          .define(
              IDLE_TIMEOUT_CONFIG,
              Type.INT,
              600,
              ConfigDef.between(0, 31 * 86400),
              IDLE_TIMEOUT_DOC)
          .define(
              MAX_OPEN_FILES_CONFIG,
              Type.INT,
              5000,
              ConfigDef.between(1, 1_000_000),
              MAX_OPEN_FILES_DOC)
          .define(
              RETRY_INTERVAL_CONFIG, Type.INT, 30, ConfigDef.between(1, 86400), RETRY_INTERVAL_DOC)
          .define(KERBEROS_PRINCIPAL_CONFIG, Type.STRING, "", null, KERBEROS_PRINCIPAL_DOC)
          .define(KERBEROS_KEYTAB_CONFIG, Type.STRING, "", null, KERBEROS_KEYTAB_DOC)
          .define(NAMENODE_PRINCIPAL_CONFIG, Type.STRING, "", null, NAMENODE_PRINCIPAL_DOC)
          .define(
              DATA_TRANSFER_PROTECTION_CONFIG,
              Type.STRING,
              "",
              emptyOrOneOf("authentication", "integrity", "privacy"),
              DATA_TRANSFER_PROTECTION_DOC);

  private final URI root;
  private final ZoneId timeZone;
  private final String filePrefix;
  private final boolean snappy;
  private final int batchSize;
  private final long rollBytes;
  private final long rollMillis;
  private final long idleMillis;
  private final int maxOpenFiles;
  private final long retryMillis;
  private final String kerberosPrincipal;
  private final String kerberosKeytab;
  private final String namenodePrincipal;
  private final String dataTransferProtection;

  /**
   * Parses a sink's Flume context.
   *
   * @throws ConfigurationException naming the key, the value, the rule and the fix
   */
  public HdfsBucketSinkConfig(Map<String, String> settings) {
    this(COMPONENT, settings);
  }

  /**
   * Parses a sink's Flume context; {@code component} names it in errors, e.g. "HDFS bucket sink
   * hdfs0".
   *
   * @throws ConfigurationException naming the key, the value, the rule and the fix
   */
  public HdfsBucketSinkConfig(String component, Map<String, String> settings) {
    ConfigDef.Values values = DEFINITION.parse(component, settings);
    String rootText = (String) values.required(ROOT_CONFIG, ROOT_EXAMPLE);
    try {
      root =
          URI.create(
              rootText.endsWith("/") ? rootText.substring(0, rootText.length() - 1) : rootText);
    } catch (IllegalArgumentException e) {
      throw DEFINITION.invalid(
          component, ROOT_CONFIG, rootText, "must be a URI or path (" + e.getMessage() + ")");
    }
    timeZone = ZoneId.of(values.getString(TIME_ZONE_CONFIG));
    String prefix = (String) values.required(FILE_PREFIX_CONFIG, FILE_PREFIX_EXAMPLE);
    filePrefix = prefix.replace(LOCALHOST, localHostName(component));
    snappy = values.getString(CODEC_CONFIG).toLowerCase(Locale.ROOT).equals("snappy");
    batchSize = values.getInt(BATCH_SIZE_CONFIG);
    rollBytes = values.getInt(ROLL_SIZE_CONFIG);
    rollMillis = values.getInt(ROLL_INTERVAL_CONFIG) * 1000L;
    idleMillis = values.getInt(IDLE_TIMEOUT_CONFIG) * 1000L;
    maxOpenFiles = values.getInt(MAX_OPEN_FILES_CONFIG);
    retryMillis = values.getInt(RETRY_INTERVAL_CONFIG) * 1000L;
    String principal = values.getString(KERBEROS_PRINCIPAL_CONFIG).strip();
    kerberosKeytab = values.getString(KERBEROS_KEYTAB_CONFIG).strip();
    if (principal.isEmpty() != kerberosKeytab.isEmpty()) {
      String given = principal.isEmpty() ? KERBEROS_KEYTAB_CONFIG : KERBEROS_PRINCIPAL_CONFIG;
      String absent = principal.isEmpty() ? KERBEROS_PRINCIPAL_CONFIG : KERBEROS_KEYTAB_CONFIG;
      throw ConfigDef.error(
          component,
          given + " is set but " + absent + " is not; a Kerberos login needs both",
          "set " + absent + ", or neither for simple authentication");
    }
    try {
      kerberosPrincipal = HdfsKerberos.resolveHost(principal);
    } catch (IllegalStateException e) {
      throw ConfigDef.error(
          component,
          e.getMessage() + " in " + KERBEROS_PRINCIPAL_CONFIG,
          "put the host name in the principal itself");
    }
    namenodePrincipal = values.getString(NAMENODE_PRINCIPAL_CONFIG).strip();
    dataTransferProtection =
        values.getString(DATA_TRANSFER_PROTECTION_CONFIG).toLowerCase(Locale.ROOT);
  }

  private static String localHostName(String component) {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      throw ConfigDef.error(
          component,
          "cannot resolve this machine's host name for "
              + LOCALHOST
              + " in "
              + FILE_PREFIX_CONFIG
              + " ("
              + e.getMessage()
              + ")",
          "put the host name in the prefix itself");
    }
  }

  /** Empty (Hadoop's configuration decides) or one of {@code choices}, case-insensitive. */
  private static ConfigDef.Validator emptyOrOneOf(String... choices) {
    ConfigDef.Validator oneOf = ConfigDef.oneOf(choices);
    return new ConfigDef.Validator() {
      @Override
      public String check(Object value) {
        return ((String) value).isEmpty() || oneOf.check(value) == null ? null : "must be " + this;
      }

      @Override
      public String toString() {
        return "empty or " + oneOf;
      }
    };
  }

  private static ConfigDef.Validator zoneId() {
    return new ConfigDef.Validator() {
      @Override
      public String check(Object value) {
        try {
          ZoneId.of((String) value);
          return null;
        } catch (DateTimeException e) {
          return "must be a Java time zone id such as UTC or Europe/Berlin";
        }
      }

      @Override
      public String toString() {
        return "a Java time zone id";
      }
    };
  }

  public URI root() {
    return root;
  }

  public ZoneId timeZone() {
    return timeZone;
  }

  /** The file prefix with {@value #LOCALHOST} resolved. */
  public String filePrefix() {
    return filePrefix;
  }

  public boolean snappy() {
    return snappy;
  }

  public int batchSize() {
    return batchSize;
  }

  /** 0: never roll by size. */
  public long rollBytes() {
    return rollBytes;
  }

  /** 0: never roll by age. */
  public long rollMillis() {
    return rollMillis;
  }

  /** 0: never close an idle file. */
  public long idleMillis() {
    return idleMillis;
  }

  public int maxOpenFiles() {
    return maxOpenFiles;
  }

  public long retryMillis() {
    return retryMillis;
  }

  /** Whether the sink logs in with Kerberos ({@link #kerberosPrincipal()} is set). */
  public boolean kerberos() {
    return !kerberosPrincipal.isEmpty();
  }

  /** The principal with {@code _HOST} resolved; empty without Kerberos. */
  public String kerberosPrincipal() {
    return kerberosPrincipal;
  }

  public String kerberosKeytab() {
    return kerberosKeytab;
  }

  /** Empty: from the agent's Hadoop configuration. */
  public String namenodePrincipal() {
    return namenodePrincipal;
  }

  /** Empty: from the agent's Hadoop configuration. */
  public String dataTransferProtection() {
    return dataTransferProtection;
  }

  /** Prints the keys as a Markdown table for the operations guide. */
  public static void main(String[] args) {
    System.out.print(DEFINITION.keyTable());
  }
}
