package org.flafka.syslog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What must hold for every result, whatever the input: fields lie within the input, nothing is
 * null.
 */
final class ResultInvariants {
  private ResultInvariants() {}

  static void check(ParseResult r, byte[] buffer, int offset, int length, long receivedMillis) {
    assertSame(buffer, r.buffer(), "result refers to the caller's array");
    assertEquals(offset, r.inputOffset());
    assertEquals(length, r.inputLength());
    assertNotNull(r.status(), "status");
    assertNotNull(r.format(), "format");
    assertNotNull(r.timestampSource(), "timestamp source");
    assertEquals(
        r.status() == ParseStatus.RAW,
        r.format() == SyslogFormat.UNKNOWN,
        "RAW exactly when UNKNOWN");
    if (r.status() == ParseStatus.OK) {
      assertEquals(0, r.defects(), "OK has no defects");
    }
    if (r.status() == ParseStatus.LENIENT) {
      assertTrue(r.defects() != 0, "LENIENT names its defects");
    }
    if (r.timestampSource() == TimestampSource.RECEIVED) {
      assertEquals(receivedMillis, r.timestampMillis(), "receive time when not from the message");
    }
    if (r.hasRejectedTimestamp()) {
      assertTrue(
          r.hasDefect(Defect.IMPLAUSIBLE_TIMESTAMP), "a rejected time is an implausible-timestamp");
    } else {
      assertEquals(-1, r.rejectedTimestampMillis(), "no rejected time: -1");
    }
    int end = offset + length;
    field("message", r.messageOffset(), r.messageLength(), offset, end, false);
    field("hostname", r.hostnameOffset(), r.hostnameLength(), offset, end, true);
    field("app", r.appOffset(), r.appLength(), offset, end, true);
    field("procid", r.procidOffset(), r.procidLength(), offset, end, true);
    field("msgid", r.msgidOffset(), r.msgidLength(), offset, end, true);
    field("timestamp text", r.timestampTextOffset(), r.timestampTextLength(), offset, end, true);
    field("structured data", r.structuredDataOffset(), r.structuredDataLength(), offset, end, true);
    if (r.status() == ParseStatus.RAW) {
      assertEquals(-1, r.hostnameOffset(), "RAW has no hostname");
      assertEquals(-1, r.appOffset(), "RAW has no app");
      assertEquals(-1, r.pri(), "RAW has no PRI");
      assertEquals(0, r.sdElementCount(), "RAW has no structured data");
      assertEquals(TimestampSource.RECEIVED, r.timestampSource(), "RAW uses the receive time");
    }
    for (int e = 0; e < r.sdElementCount(); e++) {
      field("sd id", r.sdIdOffset(e), r.sdIdLength(e), offset, end, false);
      for (int p = 0; p < r.sdParamCount(e); p++) {
        field("sd name", r.sdParamNameOffset(e, p), r.sdParamNameLength(e, p), offset, end, false);
        field(
            "sd value", r.sdParamValueOffset(e, p), r.sdParamValueLength(e, p), offset, end, false);
        assertNotNull(r.sdParamValue(e, p));
      }
    }
    assertNotNull(r.message());
    assertNotNull(r.toString());
  }

  private static void field(
      String name, int fieldOffset, int fieldLength, int start, int end, boolean optional) {
    if (optional && fieldOffset == -1) {
      assertEquals(0, fieldLength, name + " absent has length 0");
      return;
    }
    assertTrue(
        fieldOffset >= start && fieldLength >= 0 && fieldOffset + fieldLength <= end,
        name
            + " ["
            + fieldOffset
            + ", +"
            + fieldLength
            + ") lies within ["
            + start
            + ", "
            + end
            + ")");
  }
}
