package org.flafka.interceptors;

import java.util.Map;
import org.flafka.config.ConfigDef;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;
import org.flafka.contract.Headers;

/** The settings of {@link EventIdInterceptor}: every key, its default, rule and meaning. */
public final class EventIdInterceptorConfig {

  public static final String HEADER_CONFIG = "header";
  private static final String HEADER_DOC =
      "Name of the header that receives the event id (a 26-character ULID).";

  public static final String OVERWRITE_CONFIG = "overwrite";
  private static final String OVERWRITE_DOC =
      "Replace an id the event already carries. Leave false so that "
          + "events re-sent by an upstream agent keep their first id and duplicates can be removed by id.";

  /** How errors name the interceptor. */
  static final String COMPONENT = "event id interceptor";

  public static final ConfigDef DEFINITION =
      new ConfigDef(Kind.INTERCEPTOR)
          .define(HEADER_CONFIG, Type.STRING, Headers.ID, ConfigDef.headerName(), HEADER_DOC)
          .define(OVERWRITE_CONFIG, Type.BOOLEAN, false, null, OVERWRITE_DOC);

  private final String header;
  private final boolean overwrite;

  /**
   * Parses the interceptor's settings (the keys under {@code <source>.interceptors.<name>.}).
   *
   * @throws org.apache.flume.conf.ConfigurationException naming key, value and rule for a bad
   *     setting
   */
  public EventIdInterceptorConfig(Map<String, String> settings) {
    ConfigDef.Values values = DEFINITION.parse(COMPONENT, settings);
    this.header = values.getString(HEADER_CONFIG);
    this.overwrite = values.getBoolean(OVERWRITE_CONFIG);
  }

  public String header() {
    return header;
  }

  public boolean overwrite() {
    return overwrite;
  }

  /** Prints the keys as a Markdown table for the operations guide. */
  public static void main(String[] args) {
    System.out.print(DEFINITION.keyTable());
  }
}
