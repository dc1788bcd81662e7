package org.flafka.stack;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.interceptor.Interceptor;

/**
 * A test plugin: appends " via plugin" to every body. Lives in test-classes, which is not on the
 * agent runtime classpath, so an agent process finds it only when a test adds it with {@link
 * AgentRuntime#withPluginsOf}.
 */
public final class SuffixInterceptor implements Interceptor {
  static final String SUFFIX = " via plugin";

  @Override
  public void initialize() {}

  @Override
  public Event intercept(Event event) {
    event.setBody(
        (new String(event.getBody(), StandardCharsets.UTF_8) + SUFFIX)
            .getBytes(StandardCharsets.UTF_8));
    return event;
  }

  @Override
  public List<Event> intercept(List<Event> events) {
    events.forEach(this::intercept);
    return events;
  }

  @Override
  public void close() {}

  /**
   * What Flume instantiates from {@code interceptors.i1.type =
   * org.flafka.stack.SuffixInterceptor$Builder}.
   */
  public static final class Builder implements Interceptor.Builder {
    @Override
    public Interceptor build() {
      return new SuffixInterceptor();
    }

    @Override
    public void configure(Context context) {}
  }
}
