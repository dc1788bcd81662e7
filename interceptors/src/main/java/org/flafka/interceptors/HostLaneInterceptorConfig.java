package org.flafka.interceptors;

import java.util.Map;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;
import org.flafka.contract.Headers;

/** The settings of {@link HostLaneInterceptor}: every key, its default, rule and meaning. */
public final class HostLaneInterceptorConfig {

  public static final String HEADER_CONFIG = "header";
  private static final String HEADER_DOC =
      "Header that receives the lane number (0 to lanes-1); the source's "
          + "multiplexing selector maps each number to one channel.";

  public static final String LANES_CONFIG = "lanes";
  private static final String LANES_DOC =
      "Number of lanes: the HDFS sinks, each with its own channel.";

  public static final String KEY_HEADER_CONFIG = "key.header";
  private static final String KEY_HEADER_DOC =
      "Header whose value picks the lane. With host, every event of "
          + "one device goes to the same sink, so each dt=/host= bucket has one writer: one open file and one "
          + "file per roll instead of one per sink.";

  /** More lanes than this would be more HDFS sinks than one agent can feed. */
  private static final int MAX_LANES = 256;

  /** How errors name the interceptor. */
  static final String COMPONENT = "host lane interceptor";

  public static final ConfigDef DEFINITION =
      new ConfigDef(Kind.INTERCEPTOR)
          .define(HEADER_CONFIG, Type.STRING, "fanout", ConfigDef.headerName(), HEADER_DOC)
          .define(LANES_CONFIG, Type.INT, 1, ConfigDef.between(1, MAX_LANES), LANES_DOC)
          .define(
              KEY_HEADER_CONFIG, Type.STRING, Headers.HOST, ConfigDef.headerName(), KEY_HEADER_DOC);

  private final String header;
  private final int lanes;
  private final String keyHeader;

  /**
   * Parses the interceptor's settings (the keys under {@code <source>.interceptors.<name>.}).
   *
   * @throws org.apache.flume.conf.ConfigurationException naming key, value and rule for a bad
   *     setting
   */
  public HostLaneInterceptorConfig(Map<String, String> settings) {
    ConfigDef.Values values = DEFINITION.parse(COMPONENT, settings);
    this.header = values.getString(HEADER_CONFIG);
    this.lanes = values.getInt(LANES_CONFIG);
    this.keyHeader = values.getString(KEY_HEADER_CONFIG);
  }

  public String header() {
    return header;
  }

  public int lanes() {
    return lanes;
  }

  public String keyHeader() {
    return keyHeader;
  }

  /** Prints the keys as a Markdown table for the operations guide. */
  public static void main(String[] args) {
    System.out.print(DEFINITION.keyTable());
  }
}
