package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class ThreadCpuTest {

  @Test
  void ticksAreUserPlusSystemCountedFromTheLastParenthesis() {
    // A thread may name itself "a) b": only the last ')' ends the name field.
    String stat = "4711 (a) b) R 1 4711 4711 0 -1 4194560 90 0 0 0 1234 56 0 0 20 0 31 0 123 0 0";
    assertEquals(1234 + 56, ThreadCpu.ticks(stat));
  }

  @Test
  void flumeAgentThreadsGroupByWhatTheyDo() {
    ThreadCpu.ThreadGroups groups = ThreadCpu.ThreadGroups.FLUME_AGENT;
    assertEquals("sink runners", groups.groupOf("SinkRunner-Poll"));
    assertEquals("Kafka producer I/O", groups.groupOf("kafka-producer-"));
    assertEquals("JIT compiler", groups.groupOf("C2 CompilerThre"));
    assertEquals("GC and VM", groups.groupOf("GC Thread#1"));
    assertEquals("GC and VM", groups.groupOf("G1 Conc#0"));
    assertEquals("HDFS sink threads", groups.groupOf("hdfs-hdfs0-call"));
    assertEquals("HDFS sink threads", groups.groupOf("hdfs-hdfs12-cal"));
    assertEquals("pollable source runners", groups.groupOf("PollableSourceR"));
    assertEquals("source and other", groups.groupOf("flafka-syslog-s"));
    assertEquals("source and other", groups.groupOf("NioProcessor-3"));
  }

  @Test
  void aMissingProcessHasNoThreads() {
    assertEquals(0, ThreadCpu.read(Path.of("/proc/no-such-process/task")).size());
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void aBusyThreadsCpuLandsInItsGroup() throws InterruptedException {
    long pid = ProcessHandle.current().pid();
    ThreadCpu before = ThreadCpu.of(pid);
    Thread busy =
        new Thread(
            () -> {
              long end = System.nanoTime() + 400_000_000L;
              long spin = 0;
              while (System.nanoTime() < end) {
                spin++;
              }
              assertTrue(spin > 0);
            },
            "SinkRunner-test");
    busy.start();
    busy.join();
    // The thread has ended, so sample while another busy one runs: only live threads are listed.
    Thread second =
        new Thread(
            () -> {
              long end = System.nanoTime() + 400_000_000L;
              while (System.nanoTime() < end) {
                Thread.onSpinWait();
              }
            },
            "SinkRunner-tst2");
    second.start();
    Thread.sleep(300);
    Map<String, Double> seconds =
        ThreadCpu.of(pid).secondsSince(before, ThreadCpu.ThreadGroups.FLUME_AGENT);
    second.join();
    assertTrue(
        seconds.getOrDefault("sink runners", 0.0) >= 0.05,
        "a thread spinning for 300 ms used CPU under its group: " + seconds);
    assertTrue(
        seconds.keySet().stream().allMatch(group -> seconds.get(group) >= 0), seconds.toString());
  }
}
