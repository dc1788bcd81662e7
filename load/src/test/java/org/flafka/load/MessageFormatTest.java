package org.flafka.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each format's messages have that format's structure. A check of shape only, without our parser
 * (which lives in another module): priority, version, timestamp, host and tag where the format has
 * them, then the mark.
 */
class MessageFormatTest {

  private static final String MARK = "flafka:dev=000042;seq=000000012345;";
  private static final Map<MessageFormat, Pattern> SHAPES =
      new EnumMap<>(
          Map.of(
              MessageFormat.RFC5424,
                  Pattern.compile(
                      "<\\d{1,3}>1 \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z "
                          + "dev-000042\\.site [a-z]+ \\d+ \\S+ (-|\\[flafka@32473 variant=\"\\d\"\\]) "
                          + MARK
                          + ".*"),
              MessageFormat.RFC3164,
                  Pattern.compile(
                      "<\\d{1,3}>[A-Z][a-z]{2} [ 1-3]\\d \\d\\d:\\d\\d:\\d\\d "
                          + "dev-000042\\.site [a-z]+\\[\\d+\\]: "
                          + MARK
                          + ".*"),
              MessageFormat.ASA,
                  Pattern.compile(
                      "<16\\d>[A-Z][a-z]{2} \\d\\d \\d{4} \\d\\d:\\d\\d:\\d\\d "
                          + "dev-000042\\.site : %ASA-\\d-\\d{6}: "
                          + MARK
                          + ".*"),
              MessageFormat.PIX, Pattern.compile("<16\\d>%PIX-\\d-\\d{6}: " + MARK + ".*"),
              MessageFormat.IOS,
                  Pattern.compile(
                      "<1[89]\\d>\\d{6}: dev-000042\\.site: [A-Z][a-z]{2} [ 1-3]\\d "
                          + "\\d\\d:\\d\\d:\\d\\d\\.\\d{3} UTC: %[A-Z0-9_]+-\\d-[A-Z0-9_]+: "
                          + MARK
                          + ".*"),
              MessageFormat.JUNK,
                  Pattern.compile("[^<].*" + MARK + ".*|<(999>|13f).*", Pattern.DOTALL)));

  private static String message(MessageFormat format, int variant, int size) {
    MessageFormat.Template template = format.template(variant, FakeClock.EPOCH_MILLIS, 4096, 1);
    byte[] target = new byte[size + 10];
    template.write(target, 5, size, 42, 12345);
    return new String(target, 5, size, StandardCharsets.ISO_8859_1);
  }

  @Test
  void everyVariantOfEveryFormatHasItsFormatsShapeAtEverySize() {
    for (MessageFormat format : MessageFormat.values()) {
      for (int variant = 0; variant < MessageFormat.VARIANTS; variant++) {
        for (int size :
            new int[] {Payloads.minSize(format, FakeClock.EPOCH_MILLIS), 200, 1000, 4096}) {
          String message = message(format, variant, size);
          assertEquals(size, message.length());
          assertTrue(
              SHAPES.get(format).matcher(message).matches(),
              format + " variant " + variant + " does not look right: " + message);
          assertFalse(message.contains("\n") || message.contains("\r"), "line break in " + message);
          assertEquals(
              new Mark(42, 12345), Mark.find(message.getBytes(StandardCharsets.ISO_8859_1)));
        }
      }
    }
  }

  @Test
  void junkIsNotSyslogAndSomeOfItIsNotUtf8() {
    byte[] bytes = message(MessageFormat.JUNK, 0, 200).getBytes(StandardCharsets.ISO_8859_1);
    assertEquals((byte) 0xC3, bytes[0]);
    assertEquals((byte) 0x28, bytes[1]);
    Pattern validPriority = Pattern.compile("<(\\d|[1-9]\\d|1[0-8]\\d|19[01])>.*", Pattern.DOTALL);
    for (int variant = 0; variant < MessageFormat.VARIANTS; variant++) {
      String junk = message(MessageFormat.JUNK, variant, 200);
      assertFalse(validPriority.matcher(junk).matches(), "junk with a valid priority: " + junk);
    }
  }

  @Test
  void theRfc5424TimestampIsTheClocksTimeInUtc() {
    // 1_795_000_000_000 ms = 2026-11-18T11:06:40Z
    assertTrue(
        message(MessageFormat.RFC5424, 0, 200).startsWith("<165>1 2026-11-18T11:06:40.000000Z "));
    assertTrue(
        message(MessageFormat.RFC3164, 0, 200).startsWith("<34>Nov 18 11:06:40 dev-000042.site "));
  }

  @Test
  void pixCarriesNoHostNameSoOnlyTheMarkNamesTheDevice() {
    String pix = message(MessageFormat.PIX, 0, 200);
    assertFalse(pix.contains("dev-0"));
    assertEquals(new Mark(42, 12345), Mark.find(pix.getBytes(StandardCharsets.ISO_8859_1)));
  }

  @Test
  void hostNamesAreFixedWidth() {
    assertEquals("dev-000042.site", MessageFormat.hostname(42));
    assertEquals("dev-999999.site", MessageFormat.hostname(999_999));
  }
}
