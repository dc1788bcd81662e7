package org.flafka.config;

import static org.flafka.config.ConfigDef.NO_DEFAULT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.flume.conf.ConfigurationException;
import org.flafka.config.ConfigDef.Kind;
import org.flafka.config.ConfigDef.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigDefTest {

  private static final String C = "test source s1";

  private static final ConfigDef DEF =
      new ConfigDef(Kind.SOURCE)
          .define("name", Type.STRING, "", ConfigDef.pathSafe(8, true), "a name")
          .define("flag", Type.BOOLEAN, false, null, "a flag")
          .define("count", Type.INT, 3, ConfigDef.between(1, 10), "a count")
          .define(
              "items",
              Type.LIST,
              List.of("a", "b"),
              ConfigDef.subsetOf(List.of("a", "b", "c")),
              "some items")
          .define("header", Type.STRING, "id", ConfigDef.headerName(), "a header")
          .define("big", Type.LONG, 5L, ConfigDef.atLeast(0L), "a long")
          .define("room", Type.INT, 0, ConfigDef.zeroOrAtLeast(1024), "0 turns it off")
          .define("mode", Type.STRING, "auto", ConfigDef.oneOf("auto", "manual"), "a mode")
          .define("versions", Type.STRING, "v1,v2", ConfigDef.listOf("v1", "v2"), "versions")
          .define("secret", Type.PASSWORD, null, ConfigDef.pathSafe(4, true), "a password")
          .define("server", Type.STRING, NO_DEFAULT, ConfigDef.example("host:1"), "where to go");

  @Test
  void defaultsApplyAndValuesAreTrimmedAndTyped() {
    ConfigDef.Values defaults = DEF.parse(C, Map.of("type", "ignored.Source"));
    assertEquals("", defaults.getString("name"));
    assertFalse(defaults.getBoolean("flag"));
    assertEquals(3, defaults.getInt("count"));
    assertEquals(List.of("a", "b"), defaults.getList("items"));
    assertEquals(5L, defaults.getLong("big"));
    assertEquals(NO_DEFAULT, defaults.get("server"));
    assertFalse(defaults.isSet("count"));
    assertEquals(0, defaults.getInt("room"));
    assertEquals(1024, DEF.parse(C, Map.of("room", "1024")).getInt("room"));

    ConfigDef.Values given =
        DEF.parse(
            C,
            Map.of(
                "name", " web-1 ", "flag", "TRUE", "count", "10", "items", " c , a ", "header",
                "uid", "big", "  ", "mode", "Manual", "server", " "));
    assertEquals("web-1", given.getString("name"));
    assertTrue(given.getBoolean("flag"));
    assertEquals(10, given.getInt("count"));
    assertEquals(List.of("c", "a"), given.getList("items"));
    assertEquals("uid", given.getString("header"));
    assertEquals(5L, given.getLong("big"), "a blank number means the default");
    assertEquals(
        NO_DEFAULT, given.get("server"), "a blank value of a key without default is missing");
    assertEquals(
        List.of(), DEF.parse(C, Map.of("items", " ")).getList("items"), "a blank list is empty");
    assertEquals(
        "", DEF.parse(C, Map.of("name", " ")).getString("name"), "a blank string is empty");
    assertEquals(
        "Manual", given.getString("mode"), "oneOf is case-insensitive; the class lower-cases");
    assertTrue(given.isSet("count"));
    assertFalse(given.isSet("big"));
  }

  @ParameterizedTest(name = "[{index}] {0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "name     | ../x      | test source s1: invalid value '../x' for key 'name': must not start with '.' or '_' (Hadoop treats those as hidden). Fix: set name to empty, or up to 8 of [A-Za-z0-9._-], not starting with '.' or '_'.",
        "name     | a/b       | test source s1: invalid value 'a/b' for key 'name': may contain only letters, digits, '.', '_' and '-'. Fix: set name to empty, or up to 8 of [A-Za-z0-9._-], not starting with '.' or '_'.",
        "name     | abcdefghi | test source s1: invalid value 'abcdefghi' for key 'name': must be at most 8 characters. Fix: set name to at most 8 characters.",
        "flag     | ture      | test source s1: invalid value 'ture' for key 'flag': must be true or false. Fix: set flag to true or false.",
        "flag     | 1         | test source s1: invalid value '1' for key 'flag': must be true or false. Fix: set flag to true or false.",
        "count    | 11        | test source s1: invalid value '11' for key 'count': must be between 1 and 10. Fix: set count to between 1 and 10.",
        "count    | 2.5       | test source s1: invalid value '2.5' for key 'count': must be a whole number between -2147483648 and 2147483647. Fix: set count to a whole number between -2147483648 and 2147483647.",
        "big      | -1        | test source s1: invalid value '-1' for key 'big': must be at least 0. Fix: set big to at least 0.",
        "room     | 1023      | test source s1: invalid value '1023' for key 'room': must be 0 or at least 1024. Fix: set room to 0 or at least 1024.",
        "room     | -1        | test source s1: invalid value '-1' for key 'room': must be 0 or at least 1024. Fix: set room to 0 or at least 1024.",
        "items    | a,d       | test source s1: invalid value 'a,d' for key 'items': 'd' is not one of a, b, c. Fix: set items to any of a, b, c.",
        "items    | a,a       | test source s1: invalid value 'a,a' for key 'items': 'a' is listed twice. Fix: set items to any of a, b, c.",
        "items    | a,,b      | test source s1: invalid value 'a,,b' for key 'items': must be a comma-separated list without empty items. Fix: set items to a comma-separated list without empty items.",
        "header   | x\\ty     | test source s1: invalid value 'x\ty' for key 'header': must be printable ASCII without spaces. Fix: set header to printable ASCII without spaces.",
        "header   | ''        | test source s1: invalid value '' for key 'header': must not be empty. Fix: set header to non-empty printable ASCII without spaces.",
        "mode     | fast      | test source s1: invalid value 'fast' for key 'mode': must be one of auto, manual. Fix: set mode to one of auto, manual.",
        "versions | v1,v3     | test source s1: invalid value 'v1,v3' for key 'versions': must be a comma-separated list of v1, v2. Fix: set versions to a comma-separated list of v1, v2.",
        "secret   | hunter2!  | test source s1: invalid value '[hidden]' for key 'secret': must be at most 4 characters. Fix: set secret to at most 4 characters.",
      })
  void badValuesNameComponentKeyValueRuleAndFix(String key, String value, String message) {
    String unescaped = value.replace("\\t", "\t");
    ConfigurationException error =
        assertThrows(ConfigurationException.class, () -> DEF.parse(C, Map.of(key, unescaped)));
    assertEquals(message.replace("\\t", "\t"), error.getMessage());
  }

  @ParameterizedTest(name = "[{index}] {0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "SOURCE      | type, channels, selector.type, selector.header, selector.mapping.0, interceptors, interceptors.i1.type",
        "SINK        | type, channel",
        "CHANNEL     | type",
        "INTERCEPTOR | type",
      })
  void flumesOwnKeysOfEachKindAreAccepted(Kind kind, String flumeKeys) {
    ConfigDef def = new ConfigDef(kind).define("count", Type.INT, 3, null, "a count");
    for (String key : flumeKeys.split(",\\s*")) {
      assertEquals(3, def.parse(C, Map.of(key, "x")).getInt("count"), key);
    }
  }

  @ParameterizedTest(name = "[{index}] {0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "SINK        | channels",
        "SINK        | selector.type",
        "SINK        | interceptors",
        "CHANNEL     | channel",
        "CHANNEL     | channels",
        "INTERCEPTOR | channels",
        "SOURCE      | channel",
        "SOURCE      | selectors",
      })
  void anotherKindsFlumeKeyIsUnknown(Kind kind, String key) {
    ConfigDef def = new ConfigDef(kind).define("count", Type.INT, 3, null, "a count");
    ConfigurationException error =
        assertThrows(ConfigurationException.class, () -> def.parse(C, Map.of(key, "x")));
    assertTrue(
        error.getMessage().startsWith(C + ": unknown key '" + key + "'"), error.getMessage());
  }

  @Test
  void unknownKeysAreErrorsNamingTheClosestKnownKeyButDelegatedKeysAreNot() {
    ConfigurationException one =
        assertThrows(ConfigurationException.class, () -> DEF.parse(C, Map.of("cuont", "3")));
    assertEquals(
        C
            + ": unknown key 'cuont' (did you mean 'count'?). Fix: remove it or use one of name, flag, "
            + "count, items, header, big, room, mode, versions, secret, server.",
        one.getMessage());

    ConfigurationException two =
        assertThrows(
            ConfigurationException.class, () -> DEF.parse(C, Map.of("Count", "3", "zzzzzz", "x")));
    assertEquals(
        C
            + ": unknown keys 'Count' (did you mean 'count'?), 'zzzzzz'. Fix: remove them or use one of "
            + "name, flag, count, items, header, big, room, mode, versions, secret, server.",
        two.getMessage());

    ConfigDef delegating =
        new ConfigDef(Kind.SINK)
            .define("count", Type.INT, 3, null, "a count")
            .delegate("other.key", "kafka.producer.");
    assertEquals(
        3,
        delegating.parse(C, Map.of("other.key", "x", "kafka.producer.acks", "1")).getInt("count"));
    assertEquals(
        C
            + ": unknown key 'other.kye' (did you mean 'other.key'?). Fix: remove it or use one of count, "
            + "other.key, kafka.producer.*.",
        assertThrows(
                ConfigurationException.class, () -> delegating.parse(C, Map.of("other.kye", "x")))
            .getMessage());
    assertEquals(
        C
            + ": unknown key 'other.key2' (did you mean 'other.key'?). Fix: remove it or use one of count, "
            + "other.key, kafka.producer.*.",
        assertThrows(
                ConfigurationException.class, () -> delegating.parse(C, Map.of("other.key2", "x")))
            .getMessage());
  }

  @ParameterizedTest(name = "[{index}] {0} -> {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "null",
      value = {
        "Count      | count",
        "cuont      | count",
        "coutn      | count",
        "itemss     | items",
        "ab         | null",
        "completely | null",
      })
  void closestKey(String name, String closest) {
    assertEquals(closest, DEF.closestKey(name));
  }

  @Test
  void aBadDefaultFailsAtDefinition() {
    ConfigurationException error =
        assertThrows(
            ConfigurationException.class,
            () ->
                new ConfigDef(Kind.SINK).define("n", Type.INT, 0, ConfigDef.between(1, 2), "doc"));
    assertEquals(
        "definition: invalid value '0' for key 'n': must be between 1 and 2. Fix: set n to between 1 "
            + "and 2.",
        error.getMessage());
    // a computed default, described for the docs, is not checked
    new ConfigDef(Kind.SINK).define("n", Type.INT, -1, "computed", ConfigDef.between(1, 2), "doc");
  }

  @Test
  void requiredKeysAndOtherErrorsHaveTheSameVoice() {
    ConfigurationException missing =
        assertThrows(
            ConfigurationException.class,
            () -> DEF.parse(C, Map.of()).required("server", "host:1"));
    assertEquals(
        C + ": missing required key 'server'. Fix: add server = host:1 to the source.",
        missing.getMessage());
    assertEquals("host:9", DEF.parse(C, Map.of("server", "host:9")).required("server", "host:1"));
    assertEquals(
        C + ": a is larger than b. Fix: lower a.",
        ConfigDef.error(C, "a is larger than b", "lower a").getMessage());
  }

  private static final ConfigDef TAGGED =
      new ConfigDef(Kind.SOURCE)
          .appliesTo("protocol", "protocols", List.of("udp", "tcp", "tls"))
          .define(
              "protocol",
              Type.STRING,
              NO_DEFAULT,
              null,
              ConfigDef.oneOf("udp", "tcp", "tls"),
              Set3.ALL,
              "transport")
          .define("framing", Type.STRING, "auto", null, null, Set3.STREAM, "framing")
          .define("keystore", Type.STRING, null, null, null, ConfigDef.values("tls"), "keystore");

  private static final class Set3 {
    static final java.util.Set<String> ALL = ConfigDef.values("udp", "tcp", "tls");
    static final java.util.Set<String> STREAM = ConfigDef.values("tcp", "tls");
  }

  @ParameterizedTest(name = "[{index}] {0} with {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "null",
      value = {
        "udp | framing  | test source s1: key 'framing' does not apply to protocol=udp (it applies to tcp, tls). Fix: remove framing or set protocol to one it applies to.",
        "TCP | keystore | test source s1: key 'keystore' does not apply to protocol=tcp (it applies to tls). Fix: remove keystore or set protocol to one it applies to.",
        "tls | framing  | null",
        "tls | keystore | null",
      })
  void aKeyAppliesOnlyToTheSelectorValuesItIsDefinedFor(
      String protocol, String key, String message) {
    Map<String, String> settings = Map.of("protocol", protocol, key, "x");
    if (message == null) {
      assertEquals("x", TAGGED.parse(C, settings).getString(key));
    } else {
      ConfigurationException error =
          assertThrows(ConfigurationException.class, () -> TAGGED.parse(C, settings));
      assertEquals(message, error.getMessage());
    }
  }

  @Test
  void documentsEveryKeyWithDefaultAndRule() {
    assertEquals(
        String.join(
            "\n",
            "| key | type | default | valid values | description |",
            "|---|---|---|---|---|",
            "| `name` | string | (empty) | empty, or up to 8 of [A-Za-z0-9._-], not starting with '.' or '_' | a name |",
            "| `flag` | boolean | `false` |  | a flag |",
            "| `count` | int | `3` | between 1 and 10 | a count |",
            "| `items` | list | `a,b` | any of a, b, c | some items |",
            "| `header` | string | `id` | non-empty printable ASCII without spaces | a header |",
            "| `big` | long | `5` | at least 0 | a long |",
            "| `room` | int | `0` | 0 or at least 1024 | 0 turns it off |",
            "| `mode` | string | `auto` | one of auto, manual | a mode |",
            "| `versions` | string | `v1,v2` | a comma-separated list of v1, v2 | versions |",
            "| `secret` | password | `(unset)` | empty, or up to 4 of [A-Za-z0-9._-], not starting with '.' or '_' "
                + "| a password |",
            "| `server` | string | required | e.g. host:1 | where to go |",
            ""),
        DEF.keyTable());
    assertEquals(
        String.join(
            "\n",
            "| key | type | default | valid values | protocols | description |",
            "|---|---|---|---|---|---|",
            "| `protocol` | string | required | one of udp, tcp, tls | all | transport |",
            "| `framing` | string | `auto` |  | tcp, tls | framing |",
            "| `keystore` | string | `(unset)` |  | tls | keystore |",
            ""),
        TAGGED.keyTable(true));
  }

  @Test
  void theGeneratedRegionOfADocumentIsReplaced() {
    assertEquals(
        "a\n<b>new</e>\nz",
        ConfigDef.withGeneratedRegion("a\n<b>old</e>\nz", "<b>", "</e>", "<b>new</e>"));
    assertThrows(
        IllegalArgumentException.class,
        () -> ConfigDef.withGeneratedRegion("none", "<b>", "</e>", ""));
    assertNull(DEF.key("nope"));
  }
}
