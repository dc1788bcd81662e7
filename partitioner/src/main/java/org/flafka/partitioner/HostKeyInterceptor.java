package org.flafka.partitioner;

import java.util.List;
import java.util.Map;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.conf.ConfigurationException;
import org.apache.flume.interceptor.Interceptor;
import org.flafka.contract.Headers;

/**
 * Copies the device's host name into the header the Kafka sink uses as the record key, so that
 * {@link HostAffinityPartitioner} can see it: Flume's Kafka sink passes a partitioner nothing of
 * the event but the {@code key} header and the body. The key is then stored with each record (a few
 * bytes, compressed with the batch); a core-tier Kafka source puts it back into a {@code key}
 * header, which nothing downstream relies on.
 *
 * <p>Events without the host header keep no key and are spread like unkeyed events. Place this
 * interceptor after the SyslogInterceptor, which sets {@code host}.
 *
 * <pre>
 * a.sources.s.interceptors = syslog hostkey
 * a.sources.s.interceptors.hostkey.type = org.flafka.partitioner.HostKeyInterceptor$Builder
 * </pre>
 */
public final class HostKeyInterceptor implements Interceptor {

  /** The header that holds the device's host name (the edge contract's {@code host}). */
  public static final String CONFIG_HOST_HEADER = "hostHeader";

  public static final String DEFAULT_HOST_HEADER = Headers.HOST;

  // The key goes in Headers.KEY: the header Flume's Kafka sink reads the record key from (a fixed
  // name in Flume 1.11, not configurable), and our KafkaRecordSink's default keyHeader.
  /** Keep a key another component already set instead of replacing it with the host. */
  public static final String CONFIG_PRESERVE_EXISTING = "preserveExisting";

  public static final boolean DEFAULT_PRESERVE_EXISTING = false;

  private final String hostHeader;
  private final boolean preserveExisting;

  private HostKeyInterceptor(String hostHeader, boolean preserveExisting) {
    this.hostHeader = hostHeader;
    this.preserveExisting = preserveExisting;
  }

  @Override
  public void initialize() {}

  @Override
  public Event intercept(Event event) {
    Map<String, String> headers = event.getHeaders();
    String host = headers.get(hostHeader);
    if (host != null
        && !host.isEmpty()
        && !(preserveExisting && headers.containsKey(Headers.KEY))) {
      headers.put(Headers.KEY, host);
    }
    return event;
  }

  @Override
  public List<Event> intercept(List<Event> events) {
    for (Event event : events) {
      intercept(event);
    }
    return events;
  }

  @Override
  public void close() {}

  /** Reads {@value #CONFIG_HOST_HEADER} and {@value #CONFIG_PRESERVE_EXISTING}. */
  public static final class Builder implements Interceptor.Builder {
    private String hostHeader = DEFAULT_HOST_HEADER;
    private boolean preserveExisting = DEFAULT_PRESERVE_EXISTING;

    @Override
    public void configure(Context context) {
      hostHeader = headerName(context, CONFIG_HOST_HEADER, DEFAULT_HOST_HEADER);
      String preserve =
          context.getString(CONFIG_PRESERVE_EXISTING, String.valueOf(DEFAULT_PRESERVE_EXISTING));
      // Flume's Context.getBoolean reads any typo as false; a typo here must not silently change
      // keys.
      if (!preserve.equals("true") && !preserve.equals("false")) {
        throw new ConfigurationException(
            CONFIG_PRESERVE_EXISTING + " must be true or false but was '" + preserve + "'");
      }
      preserveExisting = Boolean.parseBoolean(preserve);
    }

    @Override
    public Interceptor build() {
      return new HostKeyInterceptor(hostHeader, preserveExisting);
    }

    private static String headerName(Context context, String key, String defaultValue) {
      String value = context.getString(key, defaultValue).trim();
      if (value.isEmpty()) {
        throw new ConfigurationException(
            key + " must name a header but was empty; the default is '" + defaultValue + "'");
      }
      return value;
    }
  }
}
