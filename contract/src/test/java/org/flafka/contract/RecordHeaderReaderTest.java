package org.flafka.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;

class RecordHeaderReaderTest {
  private static final RecordHeaderReader CONTRACT = new RecordHeaderReader(Headers.ALL);

  @Test
  void thePinnedKafkasHeadersAreReadAsBytes() {
    assertTrue(
        RecordHeaderReader.readsBytes(),
        "RecordHeader.keyBuffer or valueBuffer was not found: Kafka changed its record headers;"
            + " read them another way, or the core copies every header's key and value again");
  }

  @Test
  void valuesAreTheirUtf8TextWhereverTheyComeFrom() {
    String text = "r\u00e9seau-7";
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    Header readBack = headersReadBack(Compression.snappy().build(), Headers.HOST).get(0);
    assertEquals(Headers.HOST, RecordHeaderReader.text(readBack));
    assertEquals(Headers.HOST, RecordHeaderReader.text(readBack), "a second read, the same");
    assertEquals(Headers.HOST, new String(readBack.value(), StandardCharsets.UTF_8));
    assertEquals(Headers.HOST, RecordHeaderReader.text(readBack), "and one after value()");
    ByteBuffer direct = ByteBuffer.allocateDirect(utf8.length + 2);
    direct.put(new byte[] {'x', 'y'}).put(utf8).position(2);
    assertEquals(
        text, RecordHeaderReader.text(new RecordHeader(ByteBuffer.wrap(new byte[1]), direct)));
    assertEquals(text, RecordHeaderReader.text(new RecordHeader("k", utf8)));
    assertNull(RecordHeaderReader.text(new RecordHeader("k", (byte[]) null)));
    assertNull(RecordHeaderReader.text(new RecordHeader(ByteBuffer.wrap(new byte[1]), null)));
  }

  @Test
  void headersAsTheConsumerReadsThemGiveTheContractsOwnNames() {
    for (Header header :
        headersReadBack(Compression.snappy().build(), Headers.HOST, Headers.SITE, "hostx", "i")) {
      String found = CONTRACT.name(header);
      switch (new String(header.value(), StandardCharsets.UTF_8)) {
        case Headers.HOST -> assertSame(Headers.HOST, found);
        case Headers.SITE -> assertSame(Headers.SITE, found);
        default -> assertNull(found, header.key() + " is no contract name");
      }
    }
  }

  @Test
  void findingANameLeavesTheKeyToBeDecodedAsBefore() {
    List<Header> headers = headersReadBack(Compression.NONE, Headers.RECEIVED);
    Header header = headers.get(0);
    assertSame(Headers.RECEIVED, CONTRACT.name(header));
    assertSame(Headers.RECEIVED, CONTRACT.name(header), "a second look finds it again");
    assertEquals(Headers.RECEIVED, header.key());
    assertSame(Headers.RECEIVED, CONTRACT.name(header), "and so does one after key()");
  }

  @Test
  void aKeyOfTheSameLengthButOtherBytesIsNoMatch() {
    // "peer" and "site" are both four bytes; so is "pe\u00e9" in UTF-8, once decoded three chars
    for (String key : new String[] {"pees", "sitf", "pe\u00e9", "SITE"}) {
      Header raw =
          new RecordHeader(
              ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)), ByteBuffer.wrap(new byte[1]));
      assertNull(CONTRACT.name(raw), key);
    }
  }

  @Test
  void keysInABufferWithoutAnArrayAndKeysMadeFromStringsAreFoundToo() {
    byte[] bytes = Headers.TIMESTAMP.getBytes(StandardCharsets.UTF_8);
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 3);
    direct.put(new byte[] {'x', 'y', 'z'}).put(bytes).position(3);
    assertSame(Headers.TIMESTAMP, CONTRACT.name(new RecordHeader(direct, null)));
    assertSame(
        Headers.TIMESTAMP, CONTRACT.name(new RecordHeader(new String(bytes), new byte[] {1})));
  }

  /** Headers with these keys (each valued with its key) written into a batch and read back. */
  private static List<Header> headersReadBack(Compression compression, String... keys) {
    Header[] written = new Header[keys.length];
    for (int i = 0; i < keys.length; i++) {
      written[i] = new RecordHeader(keys[i], keys[i].getBytes(StandardCharsets.UTF_8));
    }
    MemoryRecords batch =
        MemoryRecords.withRecords(
            compression, new SimpleRecord(1L, null, "body".getBytes(), written));
    List<Header> read = new ArrayList<>();
    for (Record record : batch.records()) {
      read.addAll(List.of(record.headers()));
    }
    assertEquals(keys.length, read.size());
    return read;
  }
}
