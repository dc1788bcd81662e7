package org.flafka.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SizeSpecTest {

  private static Map<Integer, Integer> draw(SizeSpec spec, int times) {
    SplittableRandom random = new SplittableRandom(7);
    Map<Integer, Integer> counts = new TreeMap<>();
    for (int n = 0; n < times; n++) {
      counts.merge(spec.sample(random), 1, Integer::sum);
    }
    return counts;
  }

  @Test
  void aFixedSizeIsAlwaysThatSize() {
    assertEquals(Map.of(200, 1000), draw(SizeSpec.parseSize("--size", "200"), 1000));
  }

  @Test
  void aRangeCoversBothEndsUniformly() {
    Map<Integer, Integer> counts = draw(SizeSpec.parseSize("--size", "100-103"), 40_000);
    assertEquals(4, counts.size());
    assertEquals(100, SizeSpec.parseSize("--size", "100-103").min());
    assertEquals(103, SizeSpec.parseSize("--size", "100-103").max());
    counts.values().forEach(n -> assertTrue(n > 9_500 && n < 10_500, counts.toString()));
  }

  @Test
  void weightedSizesFollowTheirWeightsAndTakeSuffixes() {
    SizeSpec spec = SizeSpec.parseWeighted("--sizes", "200:90,4k:9,1m:1");
    assertEquals(200, spec.min());
    assertEquals(1_048_576, spec.max());
    Map<Integer, Integer> counts = draw(spec, 100_000);
    assertEquals(3, counts.size());
    assertTrue(Math.abs(counts.get(200) - 90_000) < 600, counts.toString());
    assertTrue(Math.abs(counts.get(4096) - 9_000) < 400, counts.toString());
    assertTrue(Math.abs(counts.get(1_048_576) - 1_000) < 150, counts.toString());
  }

  @Test
  void aZeroWeightDropsThatSize() {
    assertEquals(Map.of(300, 10), draw(SizeSpec.parseWeighted("--sizes", "200:0,300:5"), 10));
    assertEquals(300, SizeSpec.parseWeighted("--sizes", "200:0,300:5").min());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--size|abc|--size: 'abc' is not a size in bytes (e.g. 200, 4k, 1m)",
        "--size|0|--size: size '0' must be between 1 and 16777216 bytes (16m)",
        "--size|17m|--size: size '17m' must be between 1 and 16777216 bytes (16m)",
        "--size|400-100|--size 400-100: the range must be MIN-MAX with MIN <= MAX",
        "--sizes|200|--sizes 200: '200' is not SIZE:WEIGHT (e.g. 200:90,4096:9,1m:1)",
        "--sizes|200:x|--sizes 200:x: weight 'x' must be a whole number >= 0",
        "--sizes|200:0|--sizes 200:0: at least one weight must be above 0",
      })
  void badSpecsSayWhatIsWrong(String flag, String text, String message) {
    assertEquals(
        message,
        assertThrows(
                IllegalArgumentException.class,
                () -> {
                  if (flag.equals("--size")) {
                    SizeSpec.parseSize(flag, text);
                  } else {
                    SizeSpec.parseWeighted(flag, text);
                  }
                })
            .getMessage());
  }
}
