package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.flume.conf.ConfigurationException;
import org.flafka.syslog.ParseResult;
import org.flafka.syslog.SyslogFacts;
import org.flafka.syslog.SyslogParser;
import org.flafka.syslog.SyslogParserOptions;
import org.junit.jupiter.api.Test;

class ParserWarmUpTest {

  @Test
  void theSamplesWalkTheParsersCommonPathsEachReadAsTheFormItStandsFor() {
    SyslogParser parser = new SyslogParser(SyslogParserOptions.defaults());
    ParseResult result = new ParseResult();
    List<String> read =
        ParserWarmUp.SAMPLES.stream()
            .map(
                sample -> {
                  byte[] body = sample.getBytes(StandardCharsets.UTF_8);
                  parser.parse(body, 0, body.length, System.currentTimeMillis(), result);
                  return SyslogFacts.format(result) + " " + SyslogFacts.parse(result);
                })
            .toList();

    assertEquals(
        List.of(
            "rfc5424 ok",
            "rfc3164 ok",
            "cisco-ios ok",
            "cisco-ios ok",
            "cisco-asa ok",
            "rfc3164 ok",
            "rfc5424 ok",
            "unknown raw"),
        read);
  }

  @Test
  void theWarmUpAtInitializeCountsNothing() {
    SyslogInterceptorCounter counter = SyslogInterceptorCounter.instance();
    long events = counter.getEventCount();
    long raw = counter.getParseRawCount();

    SyslogInterceptor interceptor =
        new SyslogInterceptor(
            new SyslogInterceptorConfig(Map.of("warmup.messages", "20000")), Clock.systemUTC());
    interceptor.initialize();

    assertEquals(events, counter.getEventCount());
    assertEquals(raw, counter.getParseRawCount());
  }

  @Test
  void aNegativeWarmUpIsRefusedNamingTheKey() {
    ConfigurationException refused =
        assertThrows(
            ConfigurationException.class,
            () -> new SyslogInterceptorConfig(Map.of("warmup.messages", "-1")));

    assertTrue(refused.getMessage().contains("warmup.messages"), refused.getMessage());
  }
}
