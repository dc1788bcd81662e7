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
 * the event loop that read it; {@code slow} takes {@value #SLOW_MILLIS} ms over each batch, as a
 * parse that cannot keep up would.
 */
public final class TestInterceptor implements Interceptor {

  static final String THREAD_HEADER = "thread";
  static final long SLOW_MILLIS = 20;

  private final String does;

  private TestInterceptor(String does) {
    this.does = does;
  }

  @Override
  public void initialize() {}

  @Override
  public Event intercept(Event event) {
    if (does.equals("thread")) {
      event.getHeaders().put(THREAD_HEADER, Thread.currentThread().getName());
    } else if (does.equals("throw")
        && new String(event.getBody(), StandardCharsets.ISO_8859_1).contains("boom")) {
      throw new IllegalStateException("interceptor bug");
    }
    return event;
  }

  @Override
  public List<Event> intercept(List<Event> events) {
    if (does.equals("slow")) {
      try {
        Thread.sleep(SLOW_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    events.forEach(this::intercept);
    return events;
  }

  @Override
  public void close() {}

  public static final class Builder implements Interceptor.Builder {
    private String does;

    @Override
    public Interceptor build() {
      return new TestInterceptor(does);
    }

    @Override
    public void configure(Context context) {
      does = context.getString("does");
      if (!List.of("throw", "thread", "slow").contains(does)) {
        throw new IllegalArgumentException("does = " + does + ": one of throw, thread, slow");
      }
    }
  }
}
