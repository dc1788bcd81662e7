package org.flafka.interceptors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SyslogInterceptorStringsTest {

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "[{index}] \"{0}\"")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "edge-router-7.example.net", "Edge-Router-7", "10.1.2.3", "fe80::1%eth0", "a/../../etc", "..", ".hidden",
        "_tmp", "tab\there", "Zürich-GW", "host name", "\u0000\u007f", ":x", "abcdefghijklmnopqrstuvwxyz0123456789",
    })
    void hostEqualsHostNamesSanitizeOfTheDecodedName(String name) {
        for (boolean lowerCase : new boolean[] {true, false}) {
            for (int maxLength : new int[] {128, 5, 1}) {
                SyslogInterceptorStrings strings = new SyslogInterceptorStrings(lowerCase, maxLength);
                byte[] padded = utf8("xx " + name + " yy");
                int length = utf8(name).length;
                String expected = HostNames.sanitize(name, lowerCase, maxLength);
                assertEquals(expected, strings.host(padded, 3, length), lowerCase + " " + maxLength);
                assertEquals(expected, strings.host(padded, 3, length), "again, from the cache");
            }
        }
    }

    @Test
    void aRepeatedHostOrTokenIsTheSameString() {
        SyslogInterceptorStrings strings = new SyslogInterceptorStrings(true, 128);
        byte[] first = utf8("<13>Nov 21 06:58:49 Core-SW-1 sshd[42]: m");
        byte[] second = utf8("<13>Nov 21 06:58:50 Core-SW-1 sshd[43]: m");
        String host = strings.host(first, 20, 9);
        assertEquals("core-sw-1", host);
        assertSame(host, strings.host(second, 20, 9));
        String app = strings.token(first, 30, 4);
        assertEquals("sshd", app);
        assertSame(app, strings.token(second, 30, 4));
        assertEquals("42", strings.token(first, 35, 2));
        assertEquals("43", strings.token(second, 35, 2));
    }

    @Test
    void aSanitizedHostIsRememberedToo() {
        SyslogInterceptorStrings strings = new SyslogInterceptorStrings(true, 128);
        String host = strings.host(utf8("ROUTER:1"), 0, 8);
        assertEquals("router_1", host);
        assertSame(host, strings.host(utf8("ROUTER:1"), 0, 8));
        assertEquals("router_1", strings.host(utf8("Router/1"), 0, 8));
    }

    @Test
    void nonAsciiTokensAreDecodedEveryTimeWithReplacement() {
        SyslogInterceptorStrings strings = new SyslogInterceptorStrings(true, 128);
        byte[] bytes = {'a', (byte) 0xC3, (byte) 0xA9, (byte) 0xFF};
        assertEquals("a\u00e9\ufffd", strings.token(bytes, 0, 4));
        assertNotSame(strings.token(bytes, 0, 4), strings.token(bytes, 0, 4));
        assertEquals("a_", strings.host(bytes, 0, 3));
    }

    @Test
    void slotCollisionsNeverReturnAnotherValue() {
        SyslogInterceptorStrings strings = new SyslogInterceptorStrings(true, 128);
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 20_000; i++) {
                String name = "h" + i;
                assertEquals(name, strings.host(utf8(name), 0, name.length()));
                assertEquals(name, strings.token(utf8(name), 0, name.length()));
            }
        }
    }
}
