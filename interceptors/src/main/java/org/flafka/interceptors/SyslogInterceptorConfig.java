package org.flafka.interceptors;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flume.conf.ConfigurationException;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;
import org.flafka.contract.Headers;
import org.flafka.syslog.InvalidOptionException;
import org.flafka.syslog.SyslogParserOptions;

/**
 * The settings of {@link SyslogInterceptor}: its own keys (below) plus every option of the parser
 * ({@link SyslogParserOptions}: {@code timezone.default}, {@code timestamp.max.past.ms}, {@code
 * timestamp.max.future.ms} and the {@code permit.*}/{@code detect.*} leniency switches), all under
 * the interceptor's name in the agent configuration, e.g. {@code
 * a1.sources.r1.interceptors.parse.site = par-03}.
 */
public final class SyslogInterceptorConfig {

  /**
   * The headers of the edge contract that this interceptor may set, in the order it documents them.
   */
  public static final List<String> SETTABLE_HEADERS =
      List.of(
          Headers.TIMESTAMP,
          Headers.HOST,
          Headers.FACILITY,
          Headers.SEVERITY,
          Headers.APP,
          Headers.PROCID,
          Headers.MSGID,
          Headers.FORMAT,
          Headers.PARSE,
          Headers.RECEIVED,
          Headers.SITE);

  /**
   * The headers {@code overwrite} may name: all but {@code received}, which belongs to the source.
   */
  public static final List<String> OVERWRITABLE_HEADERS =
      SETTABLE_HEADERS.stream().filter(header -> !header.equals(Headers.RECEIVED)).toList();

  public static final String SITE_CONFIG = "site";
  private static final String SITE_DOC =
      "Value of the site header: the site this agent serves (e.g. par-03), "
          + "used in dashboards and HDFS paths. Empty: no site header.";

  public static final String HEADERS_CONFIG = "headers";
  private static final String HEADERS_DOC =
      "Headers this interceptor sets. 'timestamp' stands for timestamp, "
          + "timestamp_source and (when the message's time was implausible) timestamp_rejected. Drop a header "
          + "from the list to save its bytes in every Kafka record.";

  public static final String OVERWRITE_CONFIG = "overwrite";
  private static final String OVERWRITE_DOC =
      "Headers to replace when the event already has them; any other "
          + "header already set (by the source or an upstream agent) is kept. Behind Flume's stock syslogtcp and "
          + "multiport_syslogtcp sources, which set their own timestamp (in the JVM's zone, or none) and host, "
          + "use timestamp,host. The source's received header is never replaced.";

  public static final String HOST_LOWERCASE_CONFIG = "host.lowercase";
  private static final String HOST_LOWERCASE_DOC =
      "Lower-case the host header. Host names are case-insensitive "
          + "but HDFS paths are not: without it, Router7 and router7 land in two directories.";

  public static final String HOST_MAX_LENGTH_CONFIG = "host.max.length";
  private static final String HOST_MAX_LENGTH_DOC =
      "Longest host header, in characters; a longer host name is "
          + "cut to this length (253 is the longest DNS name).";

  /** How errors name the interceptor. */
  static final String COMPONENT = "syslog interceptor";

  /**
   * The interceptor's own keys; the parser's options are delegated to {@link SyslogParserOptions}.
   */
  public static final ConfigDef DEFINITION =
      new ConfigDef(Kind.INTERCEPTOR)
          .define(SITE_CONFIG, Type.STRING, "", ConfigDef.pathSafe(64, true), SITE_DOC)
          .define(
              HEADERS_CONFIG,
              Type.LIST,
              SETTABLE_HEADERS,
              ConfigDef.subsetOf(SETTABLE_HEADERS),
              HEADERS_DOC)
          .define(
              OVERWRITE_CONFIG,
              Type.LIST,
              List.of(),
              ConfigDef.subsetOf(OVERWRITABLE_HEADERS),
              OVERWRITE_DOC)
          .define(HOST_LOWERCASE_CONFIG, Type.BOOLEAN, true, null, HOST_LOWERCASE_DOC)
          .define(
              HOST_MAX_LENGTH_CONFIG,
              Type.INT,
              HostNames.DEFAULT_MAX_LENGTH,
              ConfigDef.between(1, 253),
              HOST_MAX_LENGTH_DOC)
          .delegate(SyslogParserOptions.keys());

  private final String site;
  private final Set<String> headers;
  private final Set<String> overwrite;
  private final boolean hostLowerCase;
  private final int hostMaxLength;
  private final SyslogParserOptions parserOptions;

  /**
   * Parses the interceptor's settings (the keys under {@code <source>.interceptors.<name>.}).
   *
   * @throws ConfigurationException naming key, value and rule for an unknown key or a bad value
   */
  public SyslogInterceptorConfig(Map<String, String> settings) {
    List<String> parserKeys = SyslogParserOptions.keys();
    ConfigDef.Values values = DEFINITION.parse(COMPONENT, settings);
    this.site = values.getString(SITE_CONFIG);
    this.headers = Set.copyOf(values.getList(HEADERS_CONFIG));
    this.overwrite = Set.copyOf(values.getList(OVERWRITE_CONFIG));
    this.hostLowerCase = values.getBoolean(HOST_LOWERCASE_CONFIG);
    this.hostMaxLength = values.getInt(HOST_MAX_LENGTH_CONFIG);
    Map<String, String> parserSettings = new HashMap<>();
    for (String key : parserKeys) {
      if (settings.containsKey(key)) {
        parserSettings.put(key, settings.get(key));
      }
    }
    try {
      this.parserOptions = SyslogParserOptions.from(parserSettings);
    } catch (InvalidOptionException e) {
      // the parser (JDK only) words its rule as "...: expected <rule>"; say it as every plugin does
      String message = e.getMessage();
      int at = message.lastIndexOf(": expected ");
      if (at < 0) {
        throw new ConfigurationException(COMPONENT + ": " + message, e);
      }
      String rule = message.substring(at + ": expected ".length());
      throw new ConfigurationException(
          COMPONENT
              + ": invalid value '"
              + e.value()
              + "' for key '"
              + e.key()
              + "': must be "
              + rule
              + ". Fix: set "
              + e.key()
              + " to "
              + rule
              + ".",
          e);
    }
  }

  /** The site header's value, or "" for none. */
  public String site() {
    return site;
  }

  /** Whether this interceptor sets {@code header} (one of {@link #SETTABLE_HEADERS}). */
  public boolean sets(String header) {
    return headers.contains(header);
  }

  /** Whether this interceptor replaces {@code header} when the event already has it. */
  public boolean overwrites(String header) {
    return overwrite.contains(header);
  }

  public boolean hostLowerCase() {
    return hostLowerCase;
  }

  public int hostMaxLength() {
    return hostMaxLength;
  }

  /** The options the interceptor's parser runs with. */
  public SyslogParserOptions parserOptions() {
    return parserOptions;
  }

  /**
   * The interceptor's own keys and the parser's options, as Markdown tables, for the operations
   * guide.
   */
  public static String documentation() {
    return DEFINITION.keyTable()
        + "\nParser options (same keys, same level):\n\n"
        + SyslogParserOptions.documentation();
  }

  /** Prints {@link #documentation()}. */
  public static void main(String[] args) {
    System.out.print(documentation());
  }
}
