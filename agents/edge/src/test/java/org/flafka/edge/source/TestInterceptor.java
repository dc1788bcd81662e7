package org.flafka.edge.source;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.interceptor.Interceptor;

/**
 * The interceptors the source tests configure, chosen by the key {@code does}: {@code throw} is an
 * interceptor with a bug, which throws on a message that contains "boom"; {@code thread} records in
 * the {@value #THREAD_HEADER} header the name of the thread that intercepted each event, that is
 * the event loop that read it.
 */
public final class TestInterceptor implements Interceptor {

  static final String THREAD_HEADER = "thread";

  private final boolean throwOnBoom;

  private TestInterceptor(boolean throwOnBoom) {
    this.throwOnBoom = throwOnBoom;
  }

  @Override
  public void initialize() {}

  @Override
  public Event intercept(Event event) {
    if (!throwOnBoom) {
      event.getHeaders().put(THREAD_HEADER, Thread.currentThread().getName());
    } else if (new String(event.getBody(), StandardCharsets.ISO_8859_1).contains("boom")) {
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
  public void close() {}

  public static final class Builder implements Interceptor.Builder {
    private String does;

    @Override
    public Interceptor build() {
      return new TestInterceptor(does.equals("throw"));
    }

    @Override
    public void configure(Context context) {
      does = context.getString("does");
      if (!does.equals("throw") && !does.equals("thread")) {
        throw new IllegalArgumentException("does = " + does + ": one of throw, thread");
      }
    }
  }
}
