package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.apache.flume.conf.ConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigSpecTest {

    private static final ConfigSpec SPEC = new ConfigSpec()
            .define("name", ConfigSpec.Type.STRING, "", ConfigSpec.pathSafeOrEmpty(8), "a name")
            .define("flag", ConfigSpec.Type.BOOLEAN, "false", ConfigSpec.any(), "a flag")
            .define("count", ConfigSpec.Type.INT, "3", ConfigSpec.between(1, 10), "a count")
            .define("items", ConfigSpec.Type.LIST, "a,b", ConfigSpec.subsetOf(List.of("a", "b", "c")), "some items")
            .define("header", ConfigSpec.Type.STRING, "id", ConfigSpec.headerName(), "a header");

    @Test
    void defaultsApplyAndValuesAreTrimmedAndTyped() {
        ConfigSpec.Values defaults = SPEC.parse(Map.of("type", "ignored.Builder"));
        assertEquals("", defaults.getString("name"));
        assertEquals(false, defaults.getBoolean("flag"));
        assertEquals(3, defaults.getInt("count"));
        assertEquals(List.of("a", "b"), defaults.getList("items"));

        ConfigSpec.Values given = SPEC.parse(Map.of("name", " web-1 ", "flag", "TRUE", "count", "10",
                "items", " c , a ", "header", "uid"));
        assertEquals("web-1", given.getString("name"));
        assertEquals(true, given.getBoolean("flag"));
        assertEquals(10, given.getInt("count"));
        assertEquals(List.of("c", "a"), given.getList("items"));
        assertEquals("uid", given.getString("header"));
        assertEquals(List.of(), SPEC.parse(Map.of("items", "")).getList("items"));
    }

    @ParameterizedTest(name = "[{index}] {0}={1}")
    @CsvSource(delimiter = '|', value = {
        "name   | ../x      | Invalid value '../x' for configuration 'name': must not start with '.' or '_' (Hadoop treats those as hidden)",
        "name   | a/b       | Invalid value 'a/b' for configuration 'name': may contain only letters, digits, '.', '_' and '-'",
        "name   | abcdefghi | Invalid value 'abcdefghi' for configuration 'name': must be at most 8 characters",
        "flag   | ture      | Invalid value 'ture' for configuration 'flag': expected true or false",
        "flag   | 1         | Invalid value '1' for configuration 'flag': expected true or false",
        "count  | 11        | Invalid value '11' for configuration 'count': must be between 1 and 10",
        "count  | 2.5       | Invalid value '2.5' for configuration 'count': expected an integer",
        "items  | a,d       | Invalid value 'a,d' for configuration 'items': 'd' is not one of a, b, c",
        "items  | a,,b      | Invalid value 'a,,b' for configuration 'items': expected a comma-separated list without empty items",
        "header | x\ty      | Invalid value 'x\ty' for configuration 'header': must be printable ASCII without spaces",
    })
    void badValuesNameKeyValueAndRule(String key, String value, String message) {
        String unescaped = value.replace("\\t", "\t");
        ConfigurationException error = assertThrows(ConfigurationException.class,
                () -> SPEC.parse(Map.of(key, unescaped)));
        assertEquals(message.replace("\\t", "\t"), error.getMessage());
    }

    @Test
    void unknownKeysAreErrorsButDelegatedKeysAreNot() {
        ConfigurationException error = assertThrows(ConfigurationException.class,
                () -> SPEC.parse(Map.of("cuont", "3", "nmae", "x")));
        assertEquals("Unknown configuration keys 'cuont', 'nmae': the known keys are name, flag, count, items, header",
                error.getMessage());
        assertEquals(3, SPEC.parse(Map.of("other.key", "x"), List.of("other.key")).getInt("count"));
    }

    @Test
    void aBadDefaultFailsAtDefinition() {
        ConfigurationException error = assertThrows(ConfigurationException.class,
                () -> new ConfigSpec().define("n", ConfigSpec.Type.INT, "0", ConfigSpec.between(1, 2), "doc"));
        assertEquals("Invalid value '0' for configuration 'n': must be between 1 and 2", error.getMessage());
    }

    @Test
    void documentsEveryKeyWithDefaultAndRule() {
        assertEquals(String.join("\n",
                "| key | type | default | valid values | description |",
                "|---|---|---|---|---|",
                "| `name` | string | (empty) | empty, or up to 8 of [A-Za-z0-9._-], not starting with '.' or '_' | a name |",
                "| `flag` | boolean | `false` | any | a flag |",
                "| `count` | int | `3` | [1, 10] | a count |",
                "| `items` | list | `a,b` | any of a, b, c | some items |",
                "| `header` | string | `id` | non-empty printable ASCII without spaces | a header |",
                ""), SPEC.toMarkdownTable());
    }
}
