package org.flafka.edge.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flume.Channel;
import org.apache.flume.ChannelFullException;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.Transaction;
import org.apache.flume.event.EventBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BatchMemoryChannel} with its disk buffer ({@code buffer.dir}), on a real directory. */
class DiskBufferChannelTest {

  @TempDir Path tmp;

  private final List<BatchMemoryChannel> started = new ArrayList<>();
  private final List<Path> madeReadOnly = new ArrayList<>();

  @AfterEach
  void stopChannels() throws Exception {
    for (Path dir : madeReadOnly) {
      makeWritable(dir);
    }
    started.forEach(BatchMemoryChannel::stop);
  }

  private Path dir() {
    return tmp.resolve("buffer");
  }

  /**
   * A channel of 10 events in memory with a disk buffer in {@link #dir}, keep-alive 0, spilling at
   * once.
   */
  private BatchMemoryChannel channel(String... keyValues) {
    Map<String, String> props =
        new HashMap<>(
            Map.of(
                "keep-alive",
                "0",
                "capacity",
                "10",
                "transactionCapacity",
                "10",
                "buffer.dir",
                dir().toString(),
                "buffer.spillAfterMillis",
                "0"));
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    BatchMemoryChannel channel = new BatchMemoryChannel();
    channel.setName("ch0");
    channel.configure(new Context(props));
    channel.start();
    started.add(channel);
    return channel;
  }

  /** A channel of 1000 events in memory, spilling after {@code spillAfterMillis}. */
  private BatchMemoryChannel roomyChannel(int spillAfterMillis) {
    return channel(
        "capacity",
        "1000",
        "transactionCapacity",
        "100",
        "buffer.spillAfterMillis",
        Integer.toString(spillAfterMillis));
  }

  private static Event event(int id) {
    Event event = EventBuilder.withBody(Integer.toString(id), StandardCharsets.UTF_8);
    event.getHeaders().put("id", "e" + id);
    event.getHeaders().put("host", "höst");
    return event;
  }

  private static void put(Channel channel, int from, int to) {
    Transaction tx = channel.getTransaction();
    tx.begin();
    try {
      for (int id = from; id < to; id++) {
        channel.put(event(id));
      }
      tx.commit();
    } catch (RuntimeException e) {
      tx.rollback();
      throw e;
    } finally {
      tx.close();
    }
  }

  /** Takes up to {@code max} events in one transaction; checks each event's headers came along. */
  private static List<Integer> take(Channel channel, int max, boolean commit) {
    Transaction tx = channel.getTransaction();
    tx.begin();
    List<Integer> ids = new ArrayList<>();
    Event event;
    while (ids.size() < max && (event = channel.take()) != null) {
      int id = Integer.parseInt(new String(event.getBody(), StandardCharsets.UTF_8));
      assertEquals(Map.of("id", "e" + id, "host", "höst"), event.getHeaders());
      ids.add(id);
    }
    if (commit) {
      tx.commit();
    } else {
      tx.rollback();
    }
    tx.close();
    return ids;
  }

  private static List<Integer> takeAll(Channel channel) {
    List<Integer> all = new ArrayList<>();
    for (List<Integer> batch = take(channel, 7, true);
        !batch.isEmpty();
        batch = take(channel, 7, true)) {
      all.addAll(batch);
    }
    return all;
  }

  private static List<Integer> range(int from, int to) {
    return IntStream.range(from, to).boxed().toList();
  }

  private static BatchMemoryChannelCounter counter(BatchMemoryChannel channel) throws Exception {
    var field = BatchMemoryChannel.class.getDeclaredField("counter");
    field.setAccessible(true);
    return (BatchMemoryChannelCounter) field.get(channel);
  }

  /**
   * No stop(): the process is gone, only its files remain, and the end of the process frees its
   * lock.
   */
  private void kill(BatchMemoryChannel channel) throws Exception {
    started.remove(channel);
    var field = BatchMemoryChannel.class.getDeclaredField("buffer");
    field.setAccessible(true);
    ((DiskBuffer) field.get(channel)).abandon();
  }

  private List<Path> segments() throws IOException {
    if (!Files.isDirectory(dir())) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir())) {
      return files.filter(f -> f.toString().endsWith(DiskBuffer.SUFFIX)).sorted().toList();
    }
  }

  @Test
  void aChannelWhoseSinksKeepUpNeverTouchesTheDisk() throws Exception {
    BatchMemoryChannel channel = channel();
    for (int i = 0; i < 100; i += 10) {
      put(channel, i, i + 10);
      assertEquals(range(i, i + 10), take(channel, 10, true));
    }
    assertEquals(List.of(), segments());
    assertEquals(0, counter(channel).getBufferSpillCount());
  }

  @Test
  void batchesWithNoRoomInMemoryGoToDiskAndLeaveInCommitOrder() throws Exception {
    BatchMemoryChannel channel = channel();
    put(channel, 0, 10); // fills memory
    put(channel, 10, 15); // disk, and the 10 in memory go ahead of it
    put(channel, 15, 20); // disk, behind them, although taking 5 below makes room in memory
    assertEquals(range(0, 5), take(channel, 5, true));
    put(channel, 20, 25); // still disk: batches wait there
    BatchMemoryChannelCounter counter = counter(channel);
    assertEquals(15, counter.getBufferedEventCount());
    assertEquals(20, counter.getChannelSize(), "memory and disk: what CM charts");
    assertTrue(counter.getBufferedBytes() > 0);
    assertEquals(25, counter.getBufferSpillCount());
    assertEquals(range(5, 25), takeAll(channel));
    assertEquals(25, counter.getBufferReadCount());
    assertEquals(0, counter.getBufferedEventCount());
    assertEquals(0, counter.getBufferedBytes(), "sent files are deleted");
    assertEquals(List.of(), segments());
    put(channel, 25, 30);
    assertEquals(25, counter.getBufferSpillCount(), "with the backlog gone, memory again");
  }

  @Test
  void sourcesKeepCommittingWhileNothingTakesAndTheBacklogAgeShows() throws Exception {
    BatchMemoryChannel channel = channel();
    for (int i = 0; i < 1000; i += 10) {
      put(channel, i, i + 10); // keep-alive 0: a full channel would fail at once
    }
    BatchMemoryChannelCounter counter = counter(channel);
    assertEquals(1000, counter.getBufferedEventCount());
    assertEquals(0.0, counter.getChannelFillPercentage(), "the memory's fill, whatever is on disk");
    Thread.sleep(20);
    assertTrue(counter.getBufferOldestAgeMillis() >= 20, "the oldest batch on disk ages");
    assertEquals(range(0, 1000), takeAll(channel));
    assertEquals(0, counter.getBufferOldestAgeMillis());
  }

  @Test
  void sinksThatMakeRoomWithinSpillAfterMillisKeepTheDiskOutOfTheWay() throws Exception {
    BatchMemoryChannel channel = channel("buffer.spillAfterMillis", "2000");
    put(channel, 0, 10);
    Thread sink =
        new Thread(
            () -> {
              try {
                Thread.sleep(100);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              take(channel, 10, true);
            });
    sink.start();
    put(channel, 10, 20); // waits for the sink, not for the disk
    sink.join();
    assertEquals(0, counter(channel).getBufferSpillCount());
    assertEquals(range(10, 20), takeAll(channel));
  }

  @Test
  void sinksThatTakeNothingForSpillAfterMillisSendBatchesToDiskThoughMemoryHasRoom()
      throws Exception {
    BatchMemoryChannel channel = roomyChannel(200);
    put(channel, 0, 10); // the sinks are away: nobody takes
    put(channel, 10, 20); // too soon to tell stuck from busy: memory
    BatchMemoryChannelCounter counter = counter(channel);
    assertEquals(0, counter.getBufferSpillCount());
    Thread.sleep(250);
    put(channel, 20, 30); // stuck: to disk, with the 20 waiting in memory ahead of it
    assertEquals(30, counter.getBufferSpillCount());
    assertEquals(30, counter.getBufferedEventCount(), "a kill now loses none of them");
    assertEquals(range(0, 30), takeAll(channel));
  }

  @Test
  void sinksThatTookEverythingAreNotStuckHoweverLongTheSourcesWereQuiet() throws Exception {
    BatchMemoryChannel channel = roomyChannel(200);
    put(channel, 0, 10);
    assertEquals(range(0, 10), take(channel, 10, true));
    Thread.sleep(250);
    put(channel, 10, 20);
    assertEquals(range(10, 15), take(channel, 5, true));
    put(channel, 20, 30); // the sinks took since the last look: busy, not stuck
    assertEquals(0, counter(channel).getBufferSpillCount());
    assertEquals(range(15, 30), takeAll(channel));
  }

  @Test
  void stuckSinksAndAFailingDiskLeaveBatchesInMemoryWhileItHasRoom() throws Exception {
    BatchMemoryChannel channel = roomyChannel(0);
    put(channel, 0, 10);
    makeReadOnly(dir());
    put(channel, 10, 20); // stuck at once (spill after 0 ms), the disk refuses: memory
    assertEquals(1, counter(channel).getBufferDiskErrorCount());
    assertEquals(range(0, 20), takeAll(channel));
  }

  @Test
  void aRolledBackTakeOfDiskEventsKeepsThemAndTheirFile() throws Exception {
    BatchMemoryChannel channel = channel("buffer.segmentBytes", "1");
    put(channel, 0, 10);
    put(channel, 10, 20);
    assertEquals(range(0, 10), take(channel, 10, true));
    assertEquals(1, segments().size());
    assertEquals(range(10, 17), take(channel, 7, false));
    assertEquals(1, segments().size(), "not committed: the file stays");
    assertEquals(range(10, 20), takeAll(channel));
    assertEquals(List.of(), segments());
  }

  @Test
  void aCleanStopKeepsEveryEventInOrderForTheNextStart() throws Exception {
    BatchMemoryChannel channel = channel("buffer.segmentBytes", "1");
    put(channel, 0, 10);
    put(channel, 10, 20);
    assertEquals(range(0, 20), takeAll(channel)); // the spill is over
    put(channel, 20, 25); // memory
    channel.stop();
    started.remove(channel);
    BatchMemoryChannel next = channel();
    assertEquals(5, counter(next).getBufferedEventCount());
    assertEquals(range(20, 25), takeAll(next));
  }

  @Test
  void anAgentKilledWithABacklogSendsWhatWasOnDiskAfterItsRestart() throws Exception {
    BatchMemoryChannel killed = channel("buffer.segmentBytes", "1");
    put(killed, 0, 10);
    put(killed, 10, 20);
    put(killed, 20, 30);
    assertEquals(range(0, 10), take(killed, 10, true)); // sent: its file is gone
    // taken from disk and not committed when the agent dies: sent again after the restart
    assertEquals(range(10, 13), take(killed, 3, false));
    kill(killed);
    BatchMemoryChannel restarted = channel();
    assertEquals(range(10, 30), takeAll(restarted));
    assertEquals(0, counter(restarted).getBufferCorruptCount());
  }

  @Test
  void aBatchTornByADeathMidWriteIsCutOffAndCountedAndTheRestDelivered() throws Exception {
    BatchMemoryChannel killed = channel();
    put(killed, 0, 10);
    put(killed, 10, 20);
    put(killed, 20, 30);
    kill(killed);
    Path segment = segments().get(0);
    long whole = Files.size(segment);
    try (FileChannel file = FileChannel.open(segment, StandardOpenOption.WRITE)) {
      file.truncate(whole - 7); // the last record cut short
    }
    BatchMemoryChannel restarted = channel();
    assertEquals(range(0, 20), takeAll(restarted));
    assertEquals(1, counter(restarted).getBufferCorruptCount());
  }

  @Test
  void aRecordDamagedOnDiskIsNotDeliveredAndEndsItsFile() throws Exception {
    BatchMemoryChannel killed = channel();
    put(killed, 0, 10);
    put(killed, 10, 20);
    put(killed, 20, 30);
    kill(killed);
    Path segment = segments().get(0);
    long size = Files.size(segment);
    try (FileChannel file = FileChannel.open(segment, StandardOpenOption.WRITE)) {
      file.write(ByteBuffer.wrap(new byte[] {'X'}), size - 3); // inside the last record's body
    }
    BatchMemoryChannel restarted = channel();
    assertEquals(range(0, 20), takeAll(restarted));
    assertEquals(1, counter(restarted).getBufferCorruptCount());
  }

  @Test
  void aFullDiskBufferHoldsSendersBackAsAFullMemoryChannelDoes() throws Exception {
    BatchMemoryChannel channel = channel("buffer.maxBytes", "1000"); // two records of 10 events
    put(channel, 0, 10);
    put(channel, 10, 20);
    ChannelFullException full =
        assertThrows(ChannelFullException.class, () -> put(channel, 20, 30));
    assertTrue(full.getMessage().contains("buffer.maxBytes = 1000"), full.getMessage());
    assertEquals(range(0, 20), takeAll(channel));
    put(channel, 20, 30);
    assertEquals(range(20, 30), takeAll(channel));
  }

  @Test
  void anUnwritableDirectoryIsCountedFallsBackToMemoryAndRecoversWithoutARestart()
      throws Exception {
    BatchMemoryChannel channel = channel("buffer.segmentBytes", "1");
    put(channel, 0, 10);
    makeReadOnly(dir());
    BatchMemoryChannelCounter counter = counter(channel);
    assertThrows(ChannelFullException.class, () -> put(channel, 10, 20));
    assertEquals(1, counter.getBufferDiskErrorCount());
    assertThrows(ChannelFullException.class, () -> put(channel, 10, 20));
    assertEquals(1, counter.getBufferDiskErrorCount(), "the disk rests a second after a failure");
    assertEquals(range(0, 10), takeAll(channel));
    put(channel, 10, 20); // memory still works
    assertEquals(range(10, 20), takeAll(channel));
    makeWritable(dir());
    Thread.sleep(1100);
    put(channel, 20, 30);
    put(channel, 30, 40);
    assertEquals(20, counter.getBufferSpillCount(), "the disk is used again");
    assertEquals(range(20, 40), takeAll(channel));
  }

  @Test
  void aDeletedDirectoryIsCreatedAgain() throws Exception {
    BatchMemoryChannel channel = channel("buffer.segmentBytes", "1");
    put(channel, 0, 10);
    put(channel, 10, 20);
    assertEquals(range(0, 20), takeAll(channel));
    Files.delete(dir().resolve(DiskBuffer.LOCK_FILE));
    Files.delete(dir());
    put(channel, 20, 30);
    put(channel, 30, 40);
    assertEquals(2, segments().size());
    assertEquals(range(20, 40), takeAll(channel));
  }

  @Test
  void aDirectoryThatCannotBeMadeStartsTheChannelInMemoryAndCountsIt() throws Exception {
    Files.writeString(dir(), "a file where the directory should be");
    BatchMemoryChannel channel = channel();
    assertEquals(1, counter(channel).getBufferDiskErrorCount());
    put(channel, 0, 10);
    assertEquals(range(0, 10), takeAll(channel));
  }

  @Test
  void aSecondChannelOnTheSameDirectoryIsRefusedTheDiskUntilTheFirstStops() throws Exception {
    BatchMemoryChannel first = channel("buffer.segmentBytes", "1");
    put(first, 0, 10);
    put(first, 10, 20); // on disk
    BatchMemoryChannel second = channel();
    BatchMemoryChannelCounter counter = counter(second);
    assertEquals(1, counter.getBufferDiskErrorCount());
    put(second, 100, 110);
    assertThrows(ChannelFullException.class, () -> put(second, 110, 120), "memory only");
    assertEquals(range(100, 110), takeAll(second), "nothing of the first channel's disk");
    assertEquals(range(0, 20), takeAll(first));
    first.stop();
    started.remove(first);
    Thread.sleep(1100);
    put(second, 120, 130);
    put(second, 130, 140);
    // the first spill takes the 10 waiting in memory with it
    assertEquals(
        20, counter.getBufferSpillCount(), "the disk is the second's once the first stopped");
    assertEquals(range(120, 140), takeAll(second));
  }

  @Test
  void theBufferKeysAreCheckedAndDocumented() {
    org.apache.flume.conf.ConfigurationException bad =
        assertThrows(
            org.apache.flume.conf.ConfigurationException.class,
            () ->
                BatchMemoryChannelConfig.parse(
                    "memory channel ch0", Map.of("buffer.fsync", "always")));
    assertTrue(bad.getMessage().contains("'buffer.fsync'"), bad.getMessage());
    assertTrue(bad.getMessage().contains("Fix:"), bad.getMessage());
    assertTrue(BatchMemoryChannelConfig.generatedDoc().contains("buffer.maxBytes"));
  }

  @Test
  void aBatchPartlySentBeforeAStopIsSentAgainWhole() throws Exception {
    BatchMemoryChannel channel = channel();
    put(channel, 0, 10);
    put(channel, 10, 20);
    assertEquals(range(0, 3), take(channel, 3, true));
    channel.stop();
    started.remove(channel);
    BatchMemoryChannel next = channel();
    assertEquals(range(0, 20), takeAll(next), "duplicates, never gaps");
  }

  @Test
  void theFirstSpillTakesTheEventsWaitingInMemoryToDiskSoAKillLosesOnlyWhatTheSinkHolds()
      throws Exception {
    BatchMemoryChannel killed = channel();
    put(killed, 0, 10);
    // a sink that took 4 and waits for Kafka's acknowledgement, on its own thread
    Thread sink =
        new Thread(
            () -> {
              killed.getTransaction().begin();
              for (int i = 0; i < 4; i++) {
                killed.take();
              }
            });
    sink.start();
    sink.join();
    put(killed, 10, 20); // no room: the outage begins
    put(killed, 20, 30);
    kill(killed); // the sink's 4 events are lost with it
    BatchMemoryChannel restarted = channel();
    assertEquals(range(4, 30), takeAll(restarted));
  }

  /**
   * Makes {@code dir} refuse new files: by its permissions, or for root, whom they do not stop, by
   * the immutable attribute; skips the test where neither works.
   */
  private void makeReadOnly(Path dir) throws Exception {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
    madeReadOnly.add(dir);
    Path probe = dir.resolve("probe");
    try {
      Files.createFile(probe);
      Files.delete(probe);
    } catch (IOException refused) {
      return;
    }
    int rc = new ProcessBuilder("chattr", "+i", dir.toString()).inheritIO().start().waitFor();
    try {
      Files.createFile(probe);
      Files.delete(probe);
      Assumptions.abort("cannot make " + dir + " read-only (chattr exit " + rc + ")");
    } catch (IOException refused) {
      // read-only now
    }
  }

  private static void makeWritable(Path dir) throws Exception {
    new ProcessBuilder("chattr", "-i", dir.toString()).redirectErrorStream(true).start().waitFor();
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
