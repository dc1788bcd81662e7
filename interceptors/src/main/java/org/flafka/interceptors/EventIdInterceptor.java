package org.flafka.interceptors;

import java.util.List;
import java.util.Map;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.interceptor.Interceptor;

/**
 * Gives every event a unique, time-sortable id (a ULID, see {@link UlidGenerator}) in a header, for
 * de-duplication after at-least-once delivery and for loss audits. An event that already carries an
 * id keeps it unless {@code overwrite=true}, so an event re-sent by an upstream agent keeps the id
 * it was first given.
 *
 * <p>Flume configuration: {@code type = org.flafka.interceptors.EventIdInterceptor$Builder}; keys
 * in {@link EventIdInterceptorConfig}.
 */
public final class EventIdInterceptor implements Interceptor {

  private final String header;
  private final boolean overwrite;
  private final UlidGenerator ids;

  EventIdInterceptor(EventIdInterceptorConfig config, UlidGenerator ids) {
    this.header = config.header();
    this.overwrite = config.overwrite();
    this.ids = ids;
  }

  @Override
  public void initialize() {}

  /** Sets the id header in place; never drops the event, never touches the body. */
  @Override
  public Event intercept(Event event) {
    Map<String, String> headers = event.getHeaders();
    if (overwrite || !headers.containsKey(header)) {
      headers.put(header, ids.next());
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

  /**
   * Reads {@link EventIdInterceptorConfig} from the interceptor's Flume context and builds the
   * interceptor.
   */
  public static final class Builder implements Interceptor.Builder {
    private EventIdInterceptorConfig config;

    @Override
    public void configure(Context context) {
      config = new EventIdInterceptorConfig(context.getParameters());
    }

    @Override
    public Interceptor build() {
      if (config == null) {
        throw new IllegalStateException("configure(Context) must be called before build()");
      }
      return new EventIdInterceptor(config, new UlidGenerator());
    }
  }
}
