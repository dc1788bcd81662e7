package org.flafka.edge;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.interceptor.Interceptor;

/** An interceptor with a bug: it throws on a message that contains "boom". */
public final class ThrowingInterceptor implements Interceptor {

  @Override
  public void initialize() {
  }

  @Override
  public Event intercept(Event event) {
    if (new String(event.getBody(), StandardCharsets.ISO_8859_1).contains("boom")) {
      throw new IllegalStateException("interceptor bug");
    }
    return event;
  }

  @Override
  public List<Event> intercept(List<Event> events) {
    events.forEach(this::intercept);
    return events;
  }

  @Override
  public void close() {
  }

  public static final class Builder implements Interceptor.Builder {
    @Override
    public Interceptor build() {
      return new ThrowingInterceptor();
    }

    @Override
    public void configure(Context context) {
    }
  }
}
