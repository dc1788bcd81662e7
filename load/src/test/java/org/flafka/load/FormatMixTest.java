package org.flafka.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FormatMixTest {

  @Test
  void theDefaultMixDrawsFormatsByWeight() {
    FormatMix mix = FormatMix.parse("--mix", FormatMix.DEFAULT);
    assertArrayEquals(
        new MessageFormat[] {
          MessageFormat.RFC5424,
          MessageFormat.RFC3164,
          MessageFormat.ASA,
          MessageFormat.IOS,
          MessageFormat.JUNK
        },
        mix.formats());
    Map<MessageFormat, Integer> counts = new EnumMap<>(MessageFormat.class);
    SplittableRandom random = new SplittableRandom(3);
    for (int n = 0; n < 100_000; n++) {
      counts.merge(mix.sample(random), 1, Integer::sum);
    }
    // Weights 4:3:1:1:1 of 10.
    assertTrue(Math.abs(counts.get(MessageFormat.RFC5424) - 40_000) < 700, counts.toString());
    assertTrue(Math.abs(counts.get(MessageFormat.RFC3164) - 30_000) < 700, counts.toString());
    assertTrue(Math.abs(counts.get(MessageFormat.JUNK) - 10_000) < 500, counts.toString());
  }

  @Test
  void aNameAloneWeighsOneAndZeroDropsAFormat() {
    assertEquals("rfc5424=1,pix=2", FormatMix.parse("--mix", "pix=2, rfc5424, junk=0").toString());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "rfc5424=4,syslog=1|--mix: unknown format 'syslog'; use rfc5424, rfc3164, asa, pix, ios, junk",
        "asa=1,asa=2|--mix: format 'asa' given twice",
        "asa=-1|--mix: 'asa=-1' is not NAME=WEIGHT with a whole-number weight >= 0 (e.g. rfc5424=4)",
        "asa=1=2|--mix: 'asa=1=2' is not NAME=WEIGHT with a whole-number weight >= 0 (e.g. rfc5424=4)",
        "asa=0|--mix: at least one format needs a weight above 0",
      })
  void badMixesSayWhatIsWrong(String text, String message) {
    assertEquals(
        message,
        assertThrows(IllegalArgumentException.class, () -> FormatMix.parse("--mix", text))
            .getMessage());
  }
}
