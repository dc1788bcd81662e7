package org.flafka.interceptors;

import java.util.List;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.interceptor.Interceptor;

/**
 * Spreads a core agent's events over its HDFS sinks by device: sets the lane header ({@code
 * fanout}) to a number in 0..lanes-1 that depends only on the {@code host} header, and the source's
 * multiplexing selector sends each lane to its own channel and sink.
 *
 * <p>Why by host and not by batch: the HDFS sink keeps one open file per {@code dt=}/{@code host=}
 * bucket it writes. Spreading whole batches in turn makes every sink write every bucket, so K sinks
 * hold K open files per active host (memory: K x hosts x the per-file buffers) and leave K small
 * files per host per roll. By host, each bucket has exactly one writer: one open file and one file
 * per roll, whatever K is. The cost: a source batch is cut into up to K channel transactions (one
 * per lane it touches), and one device can never use more than one sink's throughput.
 *
 * <p>The lane is a mix of {@link String#hashCode()} (fixed by the Java specification, so a host
 * keeps its lane across restarts and JVMs) modulo {@code lanes}. An event without the key header
 * goes to lane 0. Never drops an event, never touches the body. Thread-safe (stateless per event).
 *
 * <p>Flume configuration: {@code type = org.flafka.interceptors.HostLaneInterceptor$Builder}; keys
 * in {@link HostLaneInterceptorConfig} ({@code header} and {@code lanes} as the per-batch
 * FanOutInterceptor's).
 */
public final class HostLaneInterceptor implements Interceptor {

  private final String header;
  private final String keyHeader;

  /** Lane numbers as header values, made once. */
  private final String[] laneValues;

  HostLaneInterceptor(HostLaneInterceptorConfig config) {
    this.header = config.header();
    this.keyHeader = config.keyHeader();
    this.laneValues = new String[config.lanes()];
    for (int i = 0; i < laneValues.length; i++) {
      laneValues[i] = Integer.toString(i);
    }
  }

  @Override
  public void initialize() {}

  /** Sets the lane header in place and returns the same event. */
  @Override
  public Event intercept(Event event) {
    String key = event.getHeaders().get(keyHeader);
    event.getHeaders().put(header, laneValues[key == null ? 0 : lane(key, laneValues.length)]);
    return event;
  }

  @Override
  public List<Event> intercept(List<Event> events) {
    for (Event event : events) {
      intercept(event);
    }
    return events;
  }

  /**
   * The lane of {@code key}: its hash code through a 32-bit finaliser (MurmurHash3's fmix32), so
   * that host names differing only in a trailing digit spread evenly, modulo {@code lanes}.
   */
  static int lane(String key, int lanes) {
    int h = key.hashCode();
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return Math.floorMod(h, lanes);
  }

  @Override
  public void close() {}

  /** Reads {@link HostLaneInterceptorConfig} from the interceptor's Flume context and builds it. */
  public static final class Builder implements Interceptor.Builder {
    private HostLaneInterceptorConfig config;

    @Override
    public void configure(Context context) {
      config = new HostLaneInterceptorConfig(context.getParameters());
    }

    @Override
    public Interceptor build() {
      if (config == null) {
        throw new IllegalStateException("configure(Context) must be called before build()");
      }
      return new HostLaneInterceptor(config);
    }
  }
}
