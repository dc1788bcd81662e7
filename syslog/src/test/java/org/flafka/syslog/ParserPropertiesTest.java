package org.flafka.syslog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * Whatever the bytes and options: parse returns, every field lies within the given slice of the
 * array, the result is the same when parsed again and when parsed into a reused result.
 */
class ParserPropertiesTest {
  /**
   * Seeds for mutation: one real message of every shape the parser knows, plus every corpus input.
   */
  private static final List<byte[]> SEEDS = seeds();

  private static List<byte[]> seeds() {
    List<byte[]> seeds = new ArrayList<>();
    for (String s :
        List.of(
            "<165>1 2003-10-11T22:14:15.003Z host app 1 ID47 [exampleSDID@32473 iut=\"3\" a=\"x\\\"y\\]\"][b c=\"d\"] m",
            "<34>Oct 11 22:14:15 mymachine su[12]: 'su root' failed",
            "<166>Mar 07 2008 19:06:53: %ASA-6-302013: Built outbound TCP connection",
            "<189>123: host1: *Mar  1 18:46:11.123 UTC: %LINK-3-UPDOWN: Interface up",
            "<189>00:01:23: %SYS-5-CONFIG_I: Configured",
            "<189>date=2019-05-13 time=11:45:03 devname=\"FGT\" logid=\"01\" tz=\"+0200\"",
            "host\tMSWinEventLog\t1\tSecurity\t1167\tFri Mar 19 15:33:30 2010\t540",
            "<13>last message repeated 5 times",
            "<13>2017-02-06T13:14:15.003Z 192.168.0.1 fluentd 11 - - Hi",
            "<166>:Nov 21 06:58:49 UTC: %ASA-6-302013: Built outbound",
            "<189>Nov 21 06:58:49 10.1.2.3 12345: Nov 21 06:58:49.123 CET: %SEC-6-IPACCESSLOGP: list 101",
            "<189>Nov 21 06:58:49 10.1.2.3 2075: RP/0/RSP0/CPU0:Nov 21 06:58:49.123 UTC: ifmgr[227]: "
                + "%PKT_INFRA-LINK-3-UPDOWN : Interface Gi0/0/0/1")) {
      seeds.add(s.getBytes(StandardCharsets.UTF_8));
    }
    for (String file : CorpusRecord.FILES) {
      CorpusRecord.load(file).forEach(record -> seeds.add(record.input()));
    }
    return seeds;
  }

  @Property(tries = 3000)
  void arbitraryBytes(
      @ForAll @Size(max = 400) byte[] bytes,
      @ForAll("options") SyslogParserOptions options,
      @ForAll("receiveTimes") long received) {
    checkSlice(bytes, options, received);
  }

  @Property(tries = 5000)
  void mutatedRealMessages(
      @ForAll("mutated") byte[] bytes,
      @ForAll("options") SyslogParserOptions options,
      @ForAll("receiveTimes") long received) {
    checkSlice(bytes, options, received);
  }

  @Property(tries = 300)
  void anyReceiveTime(@ForAll("mutated") byte[] bytes, @ForAll long received) {
    checkSlice(bytes, SyslogParserOptions.defaults(), received);
  }

  @Property(tries = 200)
  void offsetAndLengthAnywhereInTheArray(
      @ForAll("mutated") byte[] bytes,
      @ForAll @LongRange(min = 0, max = 40) long prefix,
      @ForAll @LongRange(min = 0, max = 40) long suffix) {
    byte[] padded = new byte[(int) prefix + bytes.length + (int) suffix];
    java.util.Arrays.fill(padded, (byte) ' ');
    System.arraycopy(bytes, 0, padded, (int) prefix, bytes.length);
    SyslogParser parser = new SyslogParser();
    ParseResult inSlice =
        parser.parse(padded, (int) prefix, bytes.length, Parsing.RECEIVED, new ParseResult());
    ResultInvariants.check(inSlice, padded, (int) prefix, bytes.length, Parsing.RECEIVED);
    ParseResult alone = parser.parse(bytes, 0, bytes.length, Parsing.RECEIVED, new ParseResult());
    assertEquals(
        alone.toString(), inSlice.toString(), "the bytes around the slice make no difference");
    assertEquals(alone.messageOffset() + (int) prefix, inSlice.messageOffset());
  }

  private static void checkSlice(byte[] bytes, SyslogParserOptions options, long received) {
    SyslogParser parser = new SyslogParser(options);
    ParseResult first = parser.parse(bytes, 0, bytes.length, received, new ParseResult());
    ResultInvariants.check(first, bytes, 0, bytes.length, received);
    ParseResult reused = new ParseResult();
    byte[] other = SEEDS.get(bytes.length % SEEDS.size());
    parser.parse(other, 0, other.length, received, reused);
    parser.parse(bytes, 0, bytes.length, received, reused);
    assertEquals(first.toString(), reused.toString(), "a reused result equals a fresh one");
    assertEquals(first.defects(), reused.defects());
    assertEquals(first.messageOffset(), reused.messageOffset());
    assertEquals(first.timestampTextOffset(), reused.timestampTextOffset());
  }

  /**
   * Bytes that mean something to some reader: separators, brackets, escapes, digits, BOM, invalid
   * UTF-8.
   */
  private static final List<Integer> INTERESTING_BYTES = interestingBytes();

  private static List<Integer> interestingBytes() {
    List<Integer> bytes = new ArrayList<>();
    " :[]\"\\<>=\t\n09-%*.TZ+".chars().forEach(bytes::add);
    bytes.addAll(List.of(0, 0xEF, 0xBB, 0xBF, 0x80, 0xFF));
    return bytes;
  }

  @Provide
  Arbitrary<byte[]> mutated() {
    Arbitrary<byte[]> seed = Arbitraries.of(SEEDS);
    Arbitrary<List<int[]>> edits =
        Combinators.combine(
                Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(0, 10_000),
                Arbitraries.of(INTERESTING_BYTES))
            .as((kind, position, value) -> new int[] {kind, position, value})
            .list()
            .ofMaxSize(6);
    return Combinators.combine(seed, edits).as(ParserPropertiesTest::apply);
  }

  /** Edit kinds: 0 replace, 1 insert, 2 delete, 3 truncate, 4 duplicate a run. */
  private static byte[] apply(byte[] seed, List<int[]> edits) {
    byte[] bytes = seed.clone();
    for (int[] edit : edits) {
      if (bytes.length == 0) {
        bytes = new byte[] {(byte) edit[2]};
        continue;
      }
      int at = edit[1] % bytes.length;
      byte value = (byte) edit[2];
      switch (edit[0]) {
        case 0 -> bytes[at] = value;
        case 1 -> {
          byte[] longer = new byte[bytes.length + 1];
          System.arraycopy(bytes, 0, longer, 0, at);
          longer[at] = value;
          System.arraycopy(bytes, at, longer, at + 1, bytes.length - at);
          bytes = longer;
        }
        case 2 -> {
          byte[] shorter = new byte[bytes.length - 1];
          System.arraycopy(bytes, 0, shorter, 0, at);
          System.arraycopy(bytes, at + 1, shorter, at, bytes.length - at - 1);
          bytes = shorter;
        }
        case 3 -> bytes = java.util.Arrays.copyOf(bytes, at);
        default -> {
          int run = Math.min(8, bytes.length - at);
          byte[] longer = new byte[bytes.length + run];
          System.arraycopy(bytes, 0, longer, 0, at + run);
          System.arraycopy(bytes, at, longer, at + run, bytes.length - at);
          bytes = longer;
        }
      }
    }
    return bytes;
  }

  @Provide
  Arbitrary<SyslogParserOptions> options() {
    Arbitrary<Integer> switches =
        Arbitraries.integers().between(0, (1 << Leniency.values().length) - 1);
    Arbitrary<String> zones =
        Arbitraries.of("UTC", "Europe/Berlin", "America/St_Johns", "+14:00", "Pacific/Apia");
    Arbitrary<Long> window = Arbitraries.of(0L, 1L, 86_400_000L, 365L * 86_400_000L);
    return Combinators.combine(switches, zones, window, window)
        .as(
            (bits, zone, past, future) -> {
              SyslogParserOptions.Builder builder =
                  SyslogParserOptions.builder()
                      .set(SyslogParserOptions.TIMEZONE_DEFAULT, zone)
                      .maxPastMillis(past)
                      .maxFutureMillis(future);
              for (Leniency leniency : Leniency.values()) {
                builder.set(leniency, (bits & (1 << leniency.ordinal())) != 0);
              }
              return builder.build();
            });
  }

  @Provide
  Arbitrary<Long> receiveTimes() {
    return Arbitraries.longs()
        .between(Parsing.millis("1970-01-01T00:00:00Z"), Parsing.millis("2100-01-01T00:00:00Z"))
        .edgeCases(
            edges ->
                edges
                    .add(Parsing.millis("2026-12-31T23:59:59.999Z"))
                    .add(Parsing.millis("2024-02-29T12:00:00Z"))
                    .add(Parsing.millis("2027-01-01T00:00:00Z")));
  }
}
