package org.flafka.bench.jmh;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.event.EventBuilder;
import org.apache.flume.event.SimpleEvent;
import org.apache.flume.interceptor.Interceptor;
import org.flafka.contract.Headers;
import org.flafka.interceptors.EventIdInterceptor;
import org.flafka.interceptors.SyslogInterceptor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The interceptors on Flume events made from the {@link Corpus}, one operation per event. Each
 * benchmark builds the event as a source would (body plus {@code received} and {@code peer}
 * headers) because an interceptor changes its event; {@code sourceEventOnly} measures that alone,
 * so an interceptor's own cost is its benchmark minus {@code sourceEventOnly}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Corpus.SIZE)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class InterceptorBenchmark {

  private byte[][] messages;
  private Map<String, String> sourceHeaders;
  private Interceptor syslogInterceptor;
  private Interceptor eventIdInterceptor;

  @Setup
  public void setUp() {
    messages = Corpus.messages(42);
    sourceHeaders =
        Map.of(Headers.RECEIVED, Long.toString(Corpus.RECEIVED), Headers.PEER, "10.20.30.40");
    syslogInterceptor = syslogInterceptor();
    eventIdInterceptor = eventIdInterceptor();
  }

  /** The SyslogInterceptor as the edge template configures it for site {@code par-03}. */
  public static Interceptor syslogInterceptor() {
    Interceptor.Builder syslog = new SyslogInterceptor.Builder();
    syslog.configure(new Context(Map.of("site", "par-03")));
    return syslog.build();
  }

  public static Interceptor eventIdInterceptor() {
    Interceptor.Builder eventId = new EventIdInterceptor.Builder();
    eventId.configure(new Context(Map.of()));
    return eventId.build();
  }

  @Benchmark
  public void sourceEventOnly(Blackhole blackhole) {
    for (byte[] message : messages) {
      blackhole.consume(EventBuilder.withBody(message, sourceHeaders));
    }
  }

  @Benchmark
  public void syslogInterceptor(Blackhole blackhole) {
    for (byte[] message : messages) {
      Event event = EventBuilder.withBody(message, sourceHeaders);
      blackhole.consume(syslogInterceptor.intercept(event));
    }
  }

  /**
   * Baseline for {@link #syslogInterceptorPresizedMap}: the event as a source that sizes the header
   * map for the whole edge contract (32 slots: 15 headers stay under its 0.75 load factor) would
   * build it.
   */
  @Benchmark
  public void sourceEventPresizedMap(Blackhole blackhole) {
    for (byte[] message : messages) {
      blackhole.consume(presizedEvent(message));
    }
  }

  /** The SyslogInterceptor on events whose header map never has to grow. */
  @Benchmark
  public void syslogInterceptorPresizedMap(Blackhole blackhole) {
    for (byte[] message : messages) {
      blackhole.consume(syslogInterceptor.intercept(presizedEvent(message)));
    }
  }

  private Event presizedEvent(byte[] message) {
    Event event = new SimpleEvent();
    event.setBody(message);
    Map<String, String> headers = new HashMap<>(32);
    headers.putAll(sourceHeaders);
    event.setHeaders(headers);
    return event;
  }

  @Benchmark
  public void eventIdInterceptor(Blackhole blackhole) {
    for (byte[] message : messages) {
      Event event = EventBuilder.withBody(message, sourceHeaders);
      blackhole.consume(eventIdInterceptor.intercept(event));
    }
  }
}
