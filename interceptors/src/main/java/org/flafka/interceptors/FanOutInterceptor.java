package org.flafka.interceptors;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.interceptor.Interceptor;

/**
 * Spreads a source's events over several channels without copying them: it writes a lane number
 * ({@code 0 … lanes-1}) into a header, and the source's stock {@code multiplexing} selector maps
 * each number to one channel. Flume 1.11's {@code load_balancing} selector would do this but fails
 * configuration validation, and Flume then drops the whole source (docs/guides/configuration.md,
 * "Fan-out").
 *
 * <p>{@link #intercept(List)} gives every event of the list the same lane, the next one in turn:
 * Flume's {@code ChannelProcessor.processEventBatch} opens one transaction per channel a batch
 * touches, so one lane per batch keeps one source batch one channel transaction. {@link
 * #intercept(Event)} (sources that put one event at a time) takes the next lane per event. The
 * counter is shared, so several source threads calling one instance still take turns. Place it last
 * in the interceptor chain.
 *
 * <p>Flume configuration: {@code type = org.flafka.interceptors.FanOutInterceptor$Builder}; keys in
 * {@link FanOutInterceptorConfig}.
 */
public final class FanOutInterceptor implements Interceptor {

  private final String header;
  private final int lanes;
  private final AtomicLong turns = new AtomicLong();

  FanOutInterceptor(FanOutInterceptorConfig config) {
    this.header = config.header();
    this.lanes = config.lanes();
  }

  @Override
  public void initialize() {}

  /** Sets the next lane on this one event. */
  @Override
  public Event intercept(Event event) {
    event.getHeaders().put(header, nextLane());
    return event;
  }

  /** Sets one lane, the next in turn, on every event of the batch. An empty batch takes no turn. */
  @Override
  public List<Event> intercept(List<Event> events) {
    if (events.isEmpty()) {
      return events;
    }
    String lane = nextLane();
    for (Event event : events) {
      event.getHeaders().put(header, lane);
    }
    return events;
  }

  private String nextLane() {
    // floorMod: the counter wraps to negative after 2^63 turns, the lane must not.
    return Integer.toString((int) Math.floorMod(turns.getAndIncrement(), (long) lanes));
  }

  @Override
  public void close() {}

  /**
   * Reads {@link FanOutInterceptorConfig} from the interceptor's Flume context and builds the
   * interceptor.
   */
  public static final class Builder implements Interceptor.Builder {
    private FanOutInterceptorConfig config;

    @Override
    public void configure(Context context) {
      config = new FanOutInterceptorConfig(context.getParameters());
    }

    @Override
    public Interceptor build() {
      if (config == null) {
        throw new IllegalStateException("configure(Context) must be called before build()");
      }
      return new FanOutInterceptor(config);
    }
  }
}
