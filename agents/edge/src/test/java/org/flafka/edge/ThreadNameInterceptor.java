package org.flafka.edge;

import java.util.List;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.interceptor.Interceptor;

/** Records in the {@value #HEADER} header the name of the thread that intercepted each event: which loop read it. */
public final class ThreadNameInterceptor implements Interceptor {

  static final String HEADER = "thread";

  @Override
  public void initialize() {
  }

  @Override
  public Event intercept(Event event) {
    event.getHeaders().put(HEADER, Thread.currentThread().getName());
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
      return new ThreadNameInterceptor();
    }

    @Override
    public void configure(Context context) {
    }
  }
}
