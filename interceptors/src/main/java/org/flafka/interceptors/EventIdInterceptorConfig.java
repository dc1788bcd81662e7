package org.flafka.interceptors;

import java.util.Map;
import org.flafka.contract.Headers;

/** The settings of {@link EventIdInterceptor}: every key, its default, rule and meaning. */
public final class EventIdInterceptorConfig {

    public static final String HEADER_CONFIG = "header";
    private static final String HEADER_DOC = "Name of the header that receives the event id (a 26-character ULID).";

    public static final String OVERWRITE_CONFIG = "overwrite";
    private static final String OVERWRITE_DOC = "Replace an id the event already carries. Leave false so that "
            + "events re-sent by an upstream agent keep their first id and duplicates can be removed by id.";

    public static final ConfigSpec SPEC = new ConfigSpec()
            .define(HEADER_CONFIG, ConfigSpec.Type.STRING, Headers.ID, ConfigSpec.headerName(), HEADER_DOC)
            .define(OVERWRITE_CONFIG, ConfigSpec.Type.BOOLEAN, "false", ConfigSpec.any(), OVERWRITE_DOC);

    private final String header;
    private final boolean overwrite;

    /**
     * Parses the interceptor's settings (the keys under {@code <source>.interceptors.<name>.}).
     *
     * @throws org.apache.flume.conf.ConfigurationException naming key, value and rule for a bad setting
     */
    public EventIdInterceptorConfig(Map<String, String> settings) {
        ConfigSpec.Values values = SPEC.parse(settings);
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
        System.out.print(SPEC.toMarkdownTable());
    }
}
