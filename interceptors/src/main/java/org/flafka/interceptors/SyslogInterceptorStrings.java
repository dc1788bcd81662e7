package org.flafka.interceptors;

import java.nio.charset.StandardCharsets;

/**
 * The header strings a {@link SyslogInterceptor} makes from message bytes (app, procid, msgid, host), each made in
 * one pass over the bytes, and remembered so that a value seen again (the same device, daemon or Cisco mnemonic,
 * which is most traffic) costs no allocation.
 *
 * <p>Each cache is a direct-mapped table of Strings indexed by a hash of the bytes; a hit is checked against the
 * bytes, a miss replaces the slot. Only ASCII values are remembered (their String is the bytes, so a hit needs no
 * key copy); other values are decoded as UTF-8 every time. Shared by the threads calling the interceptor: slots
 * are read and written without locks, which is safe because a String is immutable (its fields are final, so a
 * String seen through a race is complete); a lost update only costs a later miss.
 */
final class SyslogInterceptorStrings {

    /** Slots per cache: a few thousand distinct hosts or apps in rotation still mostly hit. */
    private static final int SLOTS = 4096;
    private static final int MASK = SLOTS - 1;

    private final String[] tokens = new String[SLOTS];
    private final String[] hosts = new String[SLOTS];
    private final boolean hostLowerCase;
    private final int hostMaxLength;

    SyslogInterceptorStrings(boolean hostLowerCase, int hostMaxLength) {
        this.hostLowerCase = hostLowerCase;
        this.hostMaxLength = hostMaxLength;
    }

    /** {@code b[offset, offset + length)} decoded as UTF-8 (malformed bytes become U+FFFD), as ParseResult would. */
    String token(byte[] b, int offset, int length) {
        int hash = 0;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            byte c = b[i];
            if (c < 0) {
                return new String(b, offset, length, StandardCharsets.UTF_8);
            }
            hash = 31 * hash + c;
        }
        int slot = slot(hash);
        String cached = tokens[slot];
        if (cached != null && cached.length() == length && equalsAscii(cached, b, offset, length)) {
            return cached;
        }
        // ASCII: Latin-1 decoding gives the same string as UTF-8 and skips the UTF-8 decoder.
        String value = new String(b, offset, length, StandardCharsets.ISO_8859_1);
        tokens[slot] = value;
        return value;
    }

    /**
     * The {@code host} header for a message hostname of {@code length > 0} bytes: the same as
     * {@link HostNames#sanitize} of its UTF-8 decoding, made in one pass over the bytes.
     */
    String host(byte[] b, int offset, int length) {
        int hash = 0;
        boolean clean = b[offset] != '.' && b[offset] != '_' && length <= hostMaxLength;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            byte c = b[i];
            if (c < 0) {
                return HostNames.sanitize(new String(b, offset, length, StandardCharsets.UTF_8), hostLowerCase,
                        hostMaxLength);
            }
            clean &= safe(c) == c;
            hash = 31 * hash + c;
        }
        int slot = slot(hash);
        int safeLength = Math.min(length, hostMaxLength);
        String cached = hosts[slot];
        if (cached != null && cached.length() == safeLength && equalsSafe(cached, b, offset, safeLength)) {
            return cached;
        }
        String value;
        if (clean) {
            value = new String(b, offset, length, StandardCharsets.ISO_8859_1);
        } else {
            byte[] safe = new byte[safeLength];
            for (int i = 0; i < safeLength; i++) {
                safe[i] = safe(b[offset + i]);
            }
            safe[0] = firstSafe(safe[0]);
            value = new String(safe, StandardCharsets.ISO_8859_1);
        }
        hosts[slot] = value;
        return value;
    }

    /** The path-safe form of one ASCII byte (see {@link HostNames}). */
    private byte safe(byte c) {
        if (c >= 'A' && c <= 'Z') {
            return hostLowerCase ? (byte) (c + ('a' - 'A')) : c;
        }
        return HostNames.isPathSafe((char) c) ? c : (byte) '_';
    }

    /** A host never starts with '.' or '_' (hidden in Hadoop, Hive and Spark). */
    private static byte firstSafe(byte c) {
        return c == '.' || c == '_' ? (byte) '-' : c;
    }

    private boolean equalsSafe(String cached, byte[] b, int offset, int safeLength) {
        if (cached.charAt(0) != firstSafe(safe(b[offset]))) {
            return false;
        }
        for (int i = 1; i < safeLength; i++) {
            if (cached.charAt(i) != safe(b[offset + i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean equalsAscii(String cached, byte[] b, int offset, int length) {
        for (int i = 0; i < length; i++) {
            if (cached.charAt(i) != b[offset + i]) {
                return false;
            }
        }
        return true;
    }

    /** Spreads the high bits of a String-style hash over the slot index. */
    private static int slot(int hash) {
        return (hash ^ (hash >>> 12) ^ (hash >>> 20)) & MASK;
    }
}
