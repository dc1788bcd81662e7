package org.flafka.bench.jmh;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flume.source.SyslogUtils;
import org.flafka.syslog.ParseResult;
import org.flafka.syslog.SyslogParser;

/**
 * What each parser in {@link ParserBenchmark} makes of the benchmark corpus, so its speed can be
 * read next to what it extracted: our parser's formats and statuses, and for all three how many
 * messages got a host and a timestamp taken from the message. Run: {@code java -cp
 * benchmarks/target/benchmarks.jar org.flafka.bench.jmh.CorpusReport}.
 */
public final class CorpusReport {

  private CorpusReport() {}

  public static void main(String[] args) {
    byte[][] messages = Corpus.messages(42);
    int shortest = Integer.MAX_VALUE;
    int longest = 0;
    long bytes = 0;
    for (byte[] message : messages) {
      shortest = Math.min(shortest, message.length);
      longest = Math.max(longest, message.length);
      bytes += message.length;
    }
    System.out.printf(
        "corpus: %d messages, %d to %d bytes, mean %d%n%n",
        messages.length, shortest, longest, bytes / messages.length);

    SyslogParser ours = new SyslogParser();
    ParseResult result = new ParseResult();
    Map<String, Integer> outcomes = new TreeMap<>();
    int oursHost = 0;
    int oursTime = 0;
    for (byte[] message : messages) {
      ours.parse(message, 0, message.length, Corpus.RECEIVED, result);
      String defects = result.defects() == 0 ? "" : " (" + result.defectNames() + ")";
      outcomes.merge(
          result.format().headerValue() + " " + result.status().headerValue() + defects,
          1,
          Integer::sum);
      oursHost += result.hostnameOffset() >= 0 ? 1 : 0;
      oursTime += result.timestampFromMessage() ? 1 : 0;
    }
    System.out.println("| messages | our parser: format, status (defects) |");
    System.out.println("|---:|---|");
    outcomes.forEach((outcome, count) -> System.out.printf("| %d | %s |%n", count, outcome));

    Set<String> keepAll = SyslogUtils.chooseFieldsToKeep("all");
    SyslogUtils syslogUtils = new SyslogUtils(SyslogUtils.DEFAULT_SIZE, keepAll, false);
    org.apache.flume.source.SyslogParser syslogParser = new org.apache.flume.source.SyslogParser();
    int utilsInvalid = 0;
    int utilsHost = 0;
    int utilsTime = 0;
    int parserInvalid = 0;
    for (byte[] message : messages) {
      byte[] framed = new byte[message.length + 1];
      System.arraycopy(message, 0, framed, 0, message.length);
      framed[message.length] = '\n';
      Map<String, String> headers =
          syslogUtils.extractEvent(Unpooled.wrappedBuffer(framed)).getHeaders();
      utilsInvalid += headers.containsKey(SyslogUtils.EVENT_STATUS) ? 1 : 0;
      utilsHost += headers.containsKey("host") ? 1 : 0;
      utilsTime += headers.containsKey("timestamp") ? 1 : 0;
      try {
        syslogParser.parseMessage(
            new String(message, StandardCharsets.UTF_8), StandardCharsets.UTF_8, keepAll);
      } catch (IllegalArgumentException e) {
        parserInvalid++;
      }
    }
    int parserParsed = messages.length - parserInvalid;
    System.out.println();
    System.out.println(
        "| parser | marked invalid | with a host | with a timestamp from the message |");
    System.out.println("|---|---:|---:|---:|");
    System.out.printf(
        "| flafka SyslogParser | %d raw | %d | %d |%n",
        outcomes.entrySet().stream()
            .filter(e -> e.getKey().contains(" raw"))
            .mapToInt(Map.Entry::getValue)
            .sum(),
        oursHost,
        oursTime);
    System.out.printf(
        "| Flume SyslogUtils (syslogtcp) | %d | %d | %d |%n", utilsInvalid, utilsHost, utilsTime);
    // SyslogParser sets both headers on every message it does not reject (the time is "now" for a
    // '-' stamp and 0 for an unreadable RFC 3164 one), so its counts are upper bounds.
    System.out.printf(
        "| Flume SyslogParser (multiport_syslogtcp) | %d | %d | at most %d |%n",
        parserInvalid, parserParsed, parserParsed);
  }
}
