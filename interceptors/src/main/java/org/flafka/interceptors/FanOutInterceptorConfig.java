package org.flafka.interceptors;

import java.util.Map;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;

/** The settings of {@link FanOutInterceptor}: every key, its default, rule and meaning. */
public final class FanOutInterceptorConfig {

  public static final String HEADER_CONFIG = "header";
  private static final String HEADER_DOC =
      "Name of the header that receives the lane number (0 to lanes-1); the "
          + "source's multiplexing selector maps each number to one channel (selector.header names the same header).";

  public static final String LANES_CONFIG = "lanes";
  private static final String LANES_DOC =
      "Number of lanes (channels) to spread over; one lane per channel "
          + "of the source, so the numbers match the selector's mappings.";

  /** More lanes than this is a typo, not a deployment: each lane is a channel with its own sink. */
  public static final int MAX_LANES = 1024;

  /** How errors name the interceptor. */
  static final String COMPONENT = "fan-out interceptor";

  public static final ConfigDef DEFINITION =
      new ConfigDef(Kind.INTERCEPTOR)
          .define(HEADER_CONFIG, Type.STRING, "fanout", ConfigDef.headerName(), HEADER_DOC)
          .define(LANES_CONFIG, Type.INT, 1, ConfigDef.between(1, MAX_LANES), LANES_DOC);

  private final String header;
  private final int lanes;

  /**
   * Parses the interceptor's settings (the keys under {@code <source>.interceptors.<name>.}).
   *
   * @throws org.apache.flume.conf.ConfigurationException naming key, value and rule for a bad
   *     setting
   */
  public FanOutInterceptorConfig(Map<String, String> settings) {
    ConfigDef.Values values = DEFINITION.parse(COMPONENT, settings);
    this.header = values.getString(HEADER_CONFIG);
    this.lanes = values.getInt(LANES_CONFIG);
  }

  public String header() {
    return header;
  }

  public int lanes() {
    return lanes;
  }

  /** Prints the keys as a Markdown table for the operations guide. */
  public static void main(String[] args) {
    System.out.print(DEFINITION.keyTable());
  }
}
