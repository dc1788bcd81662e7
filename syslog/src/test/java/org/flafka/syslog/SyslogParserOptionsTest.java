package org.flafka.syslog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SyslogParserOptionsTest {

  @Test
  void defaults() {
    SyslogParserOptions options = SyslogParserOptions.defaults();
    assertEquals(ZoneOffset.UTC, options.defaultZone().normalized());
    assertEquals(365L * 24 * 3600 * 1000, options.maxPastMillis());
    assertEquals(24L * 3600 * 1000, options.maxFutureMillis());
    for (Leniency leniency : Leniency.values()) {
      assertEquals(leniency.defaultValue(), options.isEnabled(leniency), leniency.key());
    }
    assertFalse(options.isEnabled(Leniency.PERMIT_AT_SIGNS_IN_HOSTNAME));
    assertTrue(options.isEnabled(Leniency.PERMIT_MISSING_PRI));
  }

  @Test
  void fromStringValues() {
    Map<String, String> values = new HashMap<>();
    values.put("timezone.default", " Europe/Berlin ");
    values.put("timestamp.max.past.ms", "0");
    values.put("timestamp.max.future.ms", "60000");
    values.put("permit.missing.pri", "FALSE");
    values.put("permit.at.signs.in.hostname", "true");
    SyslogParserOptions options = SyslogParserOptions.from(values);
    assertEquals(ZoneId.of("Europe/Berlin"), options.defaultZone());
    assertEquals(0, options.maxPastMillis());
    assertEquals(60000, options.maxFutureMillis());
    assertFalse(options.isEnabled(Leniency.PERMIT_MISSING_PRI));
    assertTrue(options.isEnabled(Leniency.PERMIT_AT_SIGNS_IN_HOSTNAME));
    assertEquals(options, SyslogParserOptions.from(options.values()), "values() round-trips");
    assertEquals(options, options.toBuilder().build());
    assertEquals(options.hashCode(), options.toBuilder().build().hashCode());
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "permit.missing.pri|ture|Invalid value \"ture\" for option \"permit.missing.pri\": expected true or false",
        "permit.missing.pri||Invalid value \"\" for option \"permit.missing.pri\": expected true or false",
        "timestamp.max.past.ms|-1|Invalid value \"-1\" for option \"timestamp.max.past.ms\": expected an integer >= 0",
        "timestamp.max.future.ms|1h|Invalid value \"1h\" for option \"timestamp.max.future.ms\": expected an integer"
            + " >= 0",
      })
  void invalidValuesNameKeyValueAndRule(String key, String value, String message) {
    InvalidOptionException e =
        assertThrows(
            InvalidOptionException.class,
            () -> SyslogParserOptions.from(Map.of(key, value == null ? "" : value)));
    assertEquals(message, e.getMessage());
    assertEquals(key, e.key());
  }

  @Test
  void anInvalidZoneSaysWhatAZoneLooksLike() {
    InvalidOptionException e =
        assertThrows(
            InvalidOptionException.class,
            () -> SyslogParserOptions.from(Map.of("timezone.default", "Mars/Olympus")));
    assertTrue(
        e.getMessage()
            .startsWith(
                "Invalid value \"Mars/Olympus\" for option \"timezone.default\": expected"
                    + " a zone id: a region such as Europe/Berlin or an offset such as +01:00 or UTC"),
        e.getMessage());
  }

  @Test
  void zoneAbbreviationsAreParsedAndRenderedCanonically() {
    SyslogParserOptions options =
        SyslogParserOptions.from(
            Map.of("timezone.abbreviations", " ist=+01:00,CST=-0600, NZT=+12"));
    assertEquals(Map.of("IST", 60, "CST", -360, "NZT", 720), options.zoneAbbreviations());
    assertEquals(
        "IST=+01:00,CST=-06:00,NZT=+12:00", options.values().get("timezone.abbreviations"));
    assertEquals(options, SyslogParserOptions.from(options.values()));
    assertEquals("", SyslogParserOptions.defaults().values().get("timezone.abbreviations"));
  }

  @Test
  void aBadZoneAbbreviationNamesTheEntry() {
    for (String bad :
        new String[] {
          "IST", "IST=+1:00", "I=+01:00", "TOOLONGX=+01:00", "IST=+15:00", "IST=01:00", "U2=+01:00"
        }) {
      InvalidOptionException e =
          assertThrows(
              InvalidOptionException.class,
              () -> SyslogParserOptions.from(Map.of("timezone.abbreviations", bad)),
              bad);
      assertTrue(
          e.getMessage().contains("timezone.abbreviations")
              && e.getMessage().contains("NAME=+hh:mm"),
          e.getMessage());
    }
  }

  @Test
  void anUnknownKeyListsTheKnownOnes() {
    InvalidOptionException e =
        assertThrows(
            InvalidOptionException.class,
            () -> SyslogParserOptions.from(Map.of("permit.missing.prio", "true")));
    assertTrue(
        e.getMessage()
            .startsWith(
                "Unknown option \"permit.missing.prio\" (value \"true\"); known options are"
                    + " timezone.default, timezone.abbreviations, timestamp.max.past.ms, "),
        e.getMessage());
    assertTrue(e.getMessage().contains("permit.missing.pri,"));
  }

  @Test
  void everyOptionIsDocumentedWithItsDefault() {
    String docs = SyslogParserOptions.documentation();
    assertEquals(4 + Leniency.values().length, SyslogParserOptions.definitions().size());
    for (SyslogParserOptions.Definition def : SyslogParserOptions.definitions().values()) {
      assertTrue(
          docs.contains("| `" + def.key() + "` | `" + def.defaultValue() + "` |"), def.key());
      assertFalse(def.doc().isBlank(), def.key());
    }
    assertEquals(
        SyslogParserOptions.definitions().keySet(),
        SyslogParserOptions.defaults().values().keySet());
  }

  @Test
  void docsShowTheGeneratedOptionsTable() throws IOException {
    String doc =
        Files.readString(Path.of("..", "docs", "tools", "parser.md"), StandardCharsets.UTF_8);
    String begin = "<!-- options:begin -->\n";
    int start = doc.indexOf(begin);
    int end = doc.indexOf("<!-- options:end -->");
    assertTrue(start >= 0 && end > start, "docs/tools/parser.md has the options:begin/end markers");
    assertEquals(
        SyslogParserOptions.documentation(),
        doc.substring(start + begin.length(), end),
        "docs/tools/parser.md is out of date: paste the output of SyslogParserOptions.main between the markers");
  }
}
