package org.flafka.bench.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flume.Event;
import org.apache.flume.event.EventBuilder;
import org.apache.flume.source.SyslogUtils;
import org.flafka.syslog.ParseResult;
import org.flafka.syslog.SyslogParser;
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
 * Our lenient parser against the two parsers in Flume 1.11's stock syslog sources, on the same
 * mixed corpus ({@link Corpus}) in the same run. One operation is one message (each invocation
 * parses the whole corpus).
 *
 * <ul>
 *   <li>{@code flafkaParser}: {@link SyslogParser} into a reused {@link ParseResult}; fields stay
 *       offsets into the input, so this is the parse alone. The interceptor benchmark adds the
 *       header strings.
 *   <li>{@code flumeSyslogUtils}: {@code syslogtcp}/{@code syslogudp}'s parser, driven as the TCP
 *       source drives it: {@code extractEvent} on a Netty buffer holding the LF-terminated message.
 *       It builds a Flume Event with its headers (regex match, SimpleDateFormat) and cannot be
 *       separated from that.
 *   <li>{@code flumeSyslogParser}: {@code multiport_syslogtcp}'s parser, driven as its handler
 *       drives it: decode the bytes with a CharsetDecoder, {@code parseMessage}, and on
 *       IllegalArgumentException a raw event.
 * </ul>
 *
 * Both Flume parsers run with {@code keepFields = all} (the body stays the whole message, as the
 * kit configures them), and log through SLF4J with no binding (no logging cost; a real agent also
 * logs a WARN per invalid message in SyslogUtils).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Corpus.SIZE)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ParserBenchmark {

  private byte[][] messages;
  private ByteBuf[] lfTerminated;

  private final SyslogParser flafka = new SyslogParser();
  private final ParseResult result = new ParseResult();

  private final Set<String> keepAll = SyslogUtils.chooseFieldsToKeep("all");
  private SyslogUtils syslogUtils;
  private org.apache.flume.source.SyslogParser syslogParser;
  private CharsetDecoder decoder;

  @Setup
  public void setUp() {
    messages = Corpus.messages(42);
    lfTerminated = new ByteBuf[messages.length];
    for (int i = 0; i < messages.length; i++) {
      byte[] framed = new byte[messages[i].length + 1];
      System.arraycopy(messages[i], 0, framed, 0, messages[i].length);
      framed[framed.length - 1] = '\n';
      lfTerminated[i] = Unpooled.wrappedBuffer(framed);
    }
    syslogUtils = new SyslogUtils(SyslogUtils.DEFAULT_SIZE, keepAll, false);
    syslogParser = new org.apache.flume.source.SyslogParser();
    decoder = StandardCharsets.UTF_8.newDecoder();
  }

  @Benchmark
  public void flafkaParser(Blackhole blackhole) {
    for (byte[] message : messages) {
      flafka.parse(message, 0, message.length, Corpus.RECEIVED, result);
      blackhole.consume(result.timestampMillis());
      blackhole.consume(result.hostnameOffset());
    }
  }

  @Benchmark
  public void flumeSyslogUtils(Blackhole blackhole) {
    for (ByteBuf buffer : lfTerminated) {
      buffer.readerIndex(0);
      blackhole.consume(syslogUtils.extractEvent(buffer));
    }
  }

  @Benchmark
  public void flumeSyslogParser(Blackhole blackhole) {
    for (byte[] message : messages) {
      blackhole.consume(multiportEvent(message));
    }
  }

  /**
   * What MultiportSyslogTCPSource's handler does with one line (its parseEvent, minus counters and
   * logging).
   */
  private Event multiportEvent(byte[] message) {
    String text;
    try {
      text = decoder.decode(ByteBuffer.wrap(message)).toString();
    } catch (CharacterCodingException e) {
      Event raw = EventBuilder.withBody(message);
      raw.getHeaders()
          .put(SyslogUtils.EVENT_STATUS, SyslogUtils.SyslogStatus.INVALID.getSyslogStatus());
      return raw;
    }
    try {
      return syslogParser.parseMessage(text, StandardCharsets.UTF_8, keepAll);
    } catch (IllegalArgumentException e) {
      Event raw = EventBuilder.withBody(text, StandardCharsets.UTF_8);
      raw.getHeaders()
          .put(SyslogUtils.EVENT_STATUS, SyslogUtils.SyslogStatus.INVALID.getSyslogStatus());
      return raw;
    }
  }
}
