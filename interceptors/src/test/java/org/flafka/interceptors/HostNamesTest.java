package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostNamesTest {

  @ParameterizedTest(name = "[{index}] \"{0}\" -> \"{1}\"")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "edge-router-7.example.net | edge-router-7.example.net",
        "Edge-Router-7             | edge-router-7",
        "10.1.2.3                  | 10.1.2.3",
        "fe80::1%eth0              | fe80__1_eth0",
        "a/../../etc               | a_.._.._etc",
        "..                        | -.",
        ".hidden                   | -hidden",
        "_tmp                      | -tmp",
        "tab\there                 | tab_here",
        "Zürich-GW                 | z_rich-gw",
        "host name                 | host_name",
      })
  void makesOnePathSafeLowerCaseComponent(String name, String expected) {
    assertEquals(expected, HostNames.sanitize(name, true, 128));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "edge-router-7.example.net", "Edge-Router-7", "10.1.2.3", "fe80::1%eth0", "a/../../etc",
            "..", ".hidden",
        "_tmp", "tab\there", "Zürich-GW", "host name", "\u0000\u007f", ":x",
            "abcdefghijklmnopqrstuvwxyz0123456789",
      })
  void fromBytesEqualsFromTheDecodedString(String name) {
    byte[] padded = ("xx " + name + " yy").getBytes(StandardCharsets.UTF_8);
    int length = name.getBytes(StandardCharsets.UTF_8).length;
    for (boolean lowerCase : new boolean[] {true, false}) {
      for (int maxLength : new int[] {128, 5, 1}) {
        assertEquals(
            HostNames.sanitize(name, lowerCase, maxLength),
            HostNames.sanitize(padded, 3, length, lowerCase, maxLength),
            lowerCase + " " + maxLength);
      }
    }
  }

  @Test
  void fromBytesOfAnEmptyOrMalformedName() {
    assertNull(HostNames.sanitize(new byte[] {'a'}, 1, 0, true, 128));
    assertEquals("a_", HostNames.sanitize(new byte[] {'a', (byte) 0xFF}, 0, 2, true, 128));
  }

  @Test
  void keepsCaseWhenAsked() {
    assertEquals("Edge-Router_7", HostNames.sanitize("Edge-Router:7", false, 128));
  }

  @Test
  void cutsLongNamesToTheLimit() {
    assertEquals("abcde", HostNames.sanitize("abcdefghij", true, 5));
    assertEquals("-bcde", HostNames.sanitize(".bcdefghij", true, 5));
  }

  @Test
  void returnsACleanNameItselfWithoutCopying() {
    String clean = "core-sw-12.site7.example.net";
    assertSame(clean, HostNames.sanitize(clean, true, 128));
  }

  @Test
  void absentNamesStayAbsent() {
    assertNull(HostNames.sanitize(null, true, 128));
    assertNull(HostNames.sanitize("", true, 128));
  }

  @Test
  void controlCharactersNeverSurvive() {
    for (char c = 0; c < 0x20; c++) {
      assertEquals("a_b", HostNames.sanitize("a" + c + "b", true, 128), "char " + (int) c);
    }
    assertEquals("a_b", HostNames.sanitize("a\u007fb", true, 128));
  }
}
