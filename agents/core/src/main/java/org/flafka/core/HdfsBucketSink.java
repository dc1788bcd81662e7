package org.flafka.core;

import java.io.IOException;
import java.io.OutputStream;
import java.security.PrivilegedExceptionAction;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flume.Channel;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.EventDeliveryException;
import org.apache.flume.Transaction;
import org.apache.flume.conf.BatchSizeSupported;
import org.apache.flume.conf.Configurable;
import org.apache.flume.instrumentation.SinkCounter;
import org.apache.flume.sink.AbstractSink;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ReflectionUtils;
import org.flafka.contract.HdfsKerberos;
import org.flafka.contract.Headers;
import org.flafka.interceptors.BucketHeadersInterceptor;
import org.flafka.interceptors.EpochMillis;
import org.flafka.interceptors.HostNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes event bodies as text lines into {@code <hdfs.root>/dt=YYYY-MM-DD/host=<host>/}, the core's
 * layout, a whole batch at a time on the sink's own thread. Flume 1.11's HDFS sink hands every
 * single append to a call-runner thread and waits for it, two thread hand-offs per event that made
 * it 58–60% of the core agent's CPU; it also expands the path's escapes with regular expressions
 * per event (docs/benchmarks/history/2026-11-21-core-drain.md, "Where the core's CPU goes"). This
 * sink computes the bucket from the {@code timestamp} and {@code host} headers (a cached date per
 * day), appends to the bucket's open file, and at the end of the batch flushes each file it wrote
 * (one compressed block per file and batch, then {@code hflush}) before committing the channel
 * transaction.
 *
 * <p>Files: {@code <prefix>.<n>.snappy} (or {@code .log} without compression), written as {@code
 * _<name>.tmp} and renamed when closed, so Hive, Impala and Spark skip files in use, as with the
 * template's Flume sink. A file is closed when its text reaches {@code hdfs.rollSize} (checked
 * after each batch, so a file can pass it by up to one batch's bytes), when it is {@code
 * hdfs.rollInterval} old, after {@code hdfs.idleTimeout} without writes, to stay within {@code
 * hdfs.maxOpenFiles}, and when the sink stops.
 *
 * <p>Failures: any error while writing a batch rolls the transaction back (the runner retries it
 * after its back-off), counts {@code EventWriteFail}, and abandons the files the batch wrote to:
 * each is cut back to the length it had when the last committed batch was flushed (deleted when
 * that is nothing), then published, and the retry writes to new files. So the retried batch is the
 * only copy of its events: a failure midway (a file to create while the NameNode is away, a
 * DataNode pipeline lost) writes nothing twice. The cut needs the NameNode; until it answers, the
 * file stays in progress. A close, cut or rename that fails is retried every {@code
 * hdfs.retryInterval} until it succeeds. Only a commit that fails after the flush (the channel
 * could not record it) leaves the batch in HDFS, to be read again: duplicates, never a gap.
 *
 * <p>Expects the headers {@link BucketHeadersInterceptor} guarantees; an event without a usable
 * {@code timestamp} is bucketed by the agent's clock, one without a {@code host} into {@value
 * HostNames#UNKNOWN_HOST}. Not supported (use Flume's HDFS sink): the Avro format, a timeout per
 * HDFS call (the HDFS client's own socket timeouts apply), rolling on under-replicated blocks.
 * Metrics: Flume's {@link SinkCounter}; a file opened counts as a connection created, one closed
 * and renamed as a connection closed, a failed open or close as a connection failed; {@code
 * RecoveredFileCount} counts the files below.
 *
 * <p>At start, the sink looks for in-progress files of its own {@code hdfs.filePrefix} that an
 * earlier run left behind (a crash: {@code kill -9}, a lost host), recovers their HDFS leases and
 * publishes them under their final names ({@link InProgressFiles}), so what that run flushed
 * becomes visible to Hive, Impala and Spark without an operator. A file whose lease is still being
 * recovered is tried again every second.
 *
 * <p>Kerberos ({@code hdfs.kerberosPrincipal}, {@code hdfs.kerberosKeytab}): the sink logs in from
 * its keytab with a login of its own (not the JVM's login user, so sinks with different principals
 * can share an agent), opens the file system as that principal, and before each batch renews the
 * ticket from the keytab when it nears its end, so an agent runs for months. When the login fails
 * (a missing keytab, a principal the keytab or the KDC does not know), the sink logs one line
 * naming the setting to fix, takes nothing from its channel, and tries again every {@code
 * hdfs.retryInterval}: a keytab put in place is picked up without a restart, and no event the agent
 * accepted is lost meanwhile.
 */
public class HdfsBucketSink extends AbstractSink implements Configurable, BatchSizeSupported {

  private static final Logger LOG = LoggerFactory.getLogger(HdfsBucketSink.class);
  private static final String IN_USE_PREFIX = InProgressFiles.IN_USE_PREFIX;
  private static final String IN_USE_SUFFIX = InProgressFiles.IN_USE_SUFFIX;

  /** How often open files are checked for their age and idleness, at most. */
  private static final long ROLL_CHECK_MILLIS = 1000;

  /**
   * How far back a start looks for files an earlier run left in progress, by the time their bucket
   * directory last changed: a file is open at most a roll interval, and an agent is seldom down
   * longer than this.
   */
  private static final long ORPHAN_LOOKBACK_MILLIS = 7L * 24 * 3_600_000L;

  /** How often a stopping sink retries the files it could not close yet. */
  private static final long STOP_RETRY_MILLIS = 1000;

  /** How the login's failures name the settings to fix. */
  private static final HdfsKerberos.SettingNames SETTING_NAMES =
      new HdfsKerberos.SettingNames(
          HdfsBucketSinkConfig.KERBEROS_PRINCIPAL_CONFIG + " (template: hdfs_kerberos_principal)",
          HdfsBucketSinkConfig.KERBEROS_KEYTAB_CONFIG + " (template: hdfs_kerberos_keytab)");

  private final Clock clock;
  private HdfsBucketSinkConfig config;
  private HdfsBucketSinkCounter counter;
  private Configuration hadoopConf;
  private FileSystem fs;

  /** The Kerberos login the file system was opened as; null without Kerberos. */
  private UserGroupInformation user;

  private long lastLoginAttempt;
  private SnappyCodec codec;
  private String suffix;

  /** Open files by bucket directory relative to the root ({@code dt=…/host=…}). */
  private final Map<String, BucketFile> open = new HashMap<>();

  /** Files whose close or rename failed, retried every {@code hdfs.retryInterval}. */
  private final List<BucketFile> unfinished = new ArrayList<>();

  /** Most files closed side by side ({@link #close(List)}). */
  private static final int CLOSE_THREADS = 8;

  /** The threads of {@link #close(List)}: made at start, ended at stop, idle ones let go. */
  private ThreadPoolExecutor closers;

  /**
   * In-progress files of this sink's prefix that an earlier run left open (a crash), to close and
   * publish.
   */
  private final List<Path> orphans = new ArrayList<>();

  /** The first file number of this run: a lower one of our prefix is an earlier run's. */
  private long firstFileNumber;

  /** The search for an earlier run's files has not succeeded yet (HDFS away at start). */
  private boolean orphanSearchPending;

  private long nextFileNumber;
  private long lastRollCheck;
  private long lastRetry;

  /** The day the last event fell on, as [start, end) in epoch ms and its {@code dt=} text. */
  private long dayStart = Long.MAX_VALUE;

  private long dayEnd = Long.MIN_VALUE;
  private String dayDir;

  public HdfsBucketSink() {
    this(Clock.systemUTC());
  }

  HdfsBucketSink(Clock clock) {
    this.clock = clock;
  }

  @Override
  public void configure(Context context) {
    config =
        new HdfsBucketSinkConfig(
            HdfsBucketSinkConfig.COMPONENT + " " + getName(), context.getParameters());
    if (counter == null) {
      counter = new HdfsBucketSinkCounter(getName());
    }
  }

  @Override
  public synchronized void start() {
    if (config == null) {
      throw new IllegalStateException(getName() + " was started before it was configured");
    }
    AtomicInteger closerNumber = new AtomicInteger();
    closers =
        new ThreadPoolExecutor(
            CLOSE_THREADS,
            CLOSE_THREADS,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread =
                  new Thread(task, getName() + "-close-" + closerNumber.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    closers.allowCoreThreadTimeOut(true);
    hadoopConf = new Configuration();
    // Hadoop's own shutdown hook would otherwise close the file system while the agent's hook is
    // still closing our files ("Filesystem closed"), leaving them in use; Flume's BucketWriter does
    // the same.
    hadoopConf.setBoolean("fs.automatic.close", false);
    // Every hflush ends a packet; without the pool the client allocates a new 64 KiB packet buffer
    // for each one, which makes up much of what a core agent allocates per event.
    hadoopConf.setBoolean("dfs.client.write.byte-array-manager.enabled", true);
    if (!config.namenodePrincipal().isEmpty()) {
      hadoopConf.set("dfs.namenode.kerberos.principal", config.namenodePrincipal());
    }
    if (!config.dataTransferProtection().isEmpty()) {
      hadoopConf.set("dfs.data.transfer.protection", config.dataTransferProtection());
    }
    codec = config.snappy() ? ReflectionUtils.newInstance(SnappyCodec.class, hadoopConf) : null;
    suffix = config.snappy() ? codec.getDefaultExtension() : ".log";
    nextFileNumber = clock.millis();
    firstFileNumber = nextFileNumber;
    counter.start();
    orphanSearchPending = true;
    if (config.kerberos()) {
      // A failed login leaves the sink started but taking nothing: the channel keeps every event
      // until the credentials are fixed, and process() tries again every hdfs.retryInterval.
      connect();
    } else {
      try {
        fs = FileSystem.get(config.root(), hadoopConf);
      } catch (IOException e) {
        throw new IllegalStateException(
            getName()
                + ": cannot reach "
                + config.root()
                + ": "
                + e.getMessage()
                + ". Fix: check hdfs.root and the agent's Hadoop configuration",
            e);
      }
    }
    if (fs != null) {
      recoverOrphans();
    }
    LOG.info(
        "{}: writing {} files under {}/dt=…/host=… ({}), batches of up to {} events{}",
        getName(),
        suffix,
        config.root(),
        config.timeZone(),
        config.batchSize(),
        config.kerberos() ? ", as Kerberos principal " + config.kerberosPrincipal() : "");
    super.start();
  }

  /**
   * Logs in from the keytab and opens the file system as that principal; on failure logs the one
   * line naming the setting to fix and leaves {@link #fs} null.
   */
  private void connect() {
    lastLoginAttempt = clock.millis();
    try {
      UserGroupInformation login =
          HdfsKerberos.login(
              hadoopConf, config.kerberosPrincipal(), config.kerberosKeytab(), SETTING_NAMES);
      fs =
          login.doAs(
              (PrivilegedExceptionAction<FileSystem>)
                  () -> FileSystem.get(config.root(), hadoopConf));
      user = login;
      LOG.info(
          "{}: logged in to HDFS as {} from keytab {}",
          getName(),
          config.kerberosPrincipal(),
          config.kerberosKeytab());
    } catch (HdfsKerberos.LoginFailure e) {
      LOG.error(
          "{}: {} Taking no events until it succeeds; trying again every {} s.",
          getName(),
          e.getMessage(),
          config.retryMillis() / 1000);
    } catch (IOException e) {
      LOG.error(
          "{}: cannot reach {}: {}. Fix: check hdfs.root, hdfs.namenodePrincipal and the agent's"
              + " Hadoop configuration; trying again every {} s.",
          getName(),
          config.root(),
          e.toString(),
          config.retryMillis() / 1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public synchronized void stop() {
    if (fs == null) {
      closers.shutdown();
      counter.stop();
      LOG.info("{}: stopped without having reached HDFS; {}", getName(), counter);
      super.stop();
      return;
    }
    close(new ArrayList<>(open.values()));
    closers.shutdown();
    // A file whose close failed needs its lease recovered, which takes the DataNodes a few
    // heartbeats: wait for that up to hdfs.retryInterval, as Flume's sink waits for its pending
    // close retries.
    long deadline = System.nanoTime() + config.retryMillis() * 1_000_000L;
    retryUnfinished();
    while (!unfinished.isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(STOP_RETRY_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      retryUnfinished();
    }
    if (!unfinished.isEmpty()) {
      LOG.warn(
          "{}: stopped with {} file(s) not closed or not renamed (HDFS unreachable?): {}",
          getName(),
          unfinished.size(),
          unfinished.stream().map(f -> f.inUse.toString()).toList());
    }
    counter.stop();
    LOG.info("{}: stopped; {}", getName(), counter);
    super.stop();
  }

  @Override
  public long getBatchSize() {
    return config.batchSize();
  }

  @Override
  public Status process() throws EventDeliveryException {
    long now = clock.millis();
    if (fs == null) {
      if (now - lastLoginAttempt >= config.retryMillis()) {
        connect();
      }
      if (fs == null) {
        return Status.BACKOFF;
      }
      orphanSearchPending = true;
    }
    if (user != null) {
      try {
        HdfsKerberos.renew(
            user, config.kerberosPrincipal(), config.kerberosKeytab(), SETTING_NAMES);
      } catch (HdfsKerberos.LoginFailure e) {
        // The current ticket may still be good for hours: write on, and say what to fix.
        LOG.warn("{}: could not renew the Kerberos ticket: {}", getName(), e.getMessage());
      }
    }
    if (now - lastRetry >= config.retryMillis()) {
      lastRetry = now;
      retryUnfinished();
    }
    if (now - lastRollCheck >= ROLL_CHECK_MILLIS) {
      lastRollCheck = now;
      closeDue(now);
      if (orphanSearchPending || !orphans.isEmpty()) {
        recoverOrphans();
      }
    }
    Channel channel = getChannel();
    Transaction transaction = channel.getTransaction();
    List<BucketFile> written = new ArrayList<>();
    boolean committing = false;
    transaction.begin();
    try {
      int taken = 0;
      while (taken < config.batchSize()) {
        Event event = channel.take();
        if (event == null) {
          break;
        }
        taken++;
        BucketFile file = fileFor(event.getHeaders(), now);
        if (!file.writtenInBatch) {
          file.writtenInBatch = true;
          written.add(file);
        }
        file.append(event.getBody(), now);
      }
      if (taken == 0) {
        transaction.commit();
        counter.incrementBatchEmptyCount();
        return Status.BACKOFF;
      }
      counter.addToEventDrainAttemptCount(taken);
      for (BucketFile file : written) {
        file.flush();
      }
      committing = true;
      transaction.commit();
      for (BucketFile file : written) {
        file.committedLength = file.flushedLength;
      }
      counter.addToEventDrainSuccessCount(taken);
      if (taken < config.batchSize()) {
        counter.incrementBatchUnderflowCount();
      } else {
        counter.incrementBatchCompleteCount();
      }
      for (BucketFile file : written) {
        file.writtenInBatch = false;
        if (config.rollBytes() > 0 && file.bytes >= config.rollBytes()) {
          close(file);
        }
      }
      return Status.READY;
    } catch (PartitionsRevokedException e) {
      // Not a failure: the group moved partitions while this batch was being taken. Their next
      // owner writes their events, so this batch writes nothing; its other events are taken again.
      transaction.rollback();
      for (BucketFile file : written) {
        file.writtenInBatch = false;
        file.abandon();
        close(file);
      }
      counter.incrementBatchRevokedCount();
      LOG.info(
          "{}: batch rolled back, {} file(s) it wrote to cut back to their last committed batch: {}",
          getName(),
          written.size(),
          e.getMessage());
      return Status.READY;
    } catch (IOException | RuntimeException e) {
      counter.incrementEventWriteOrChannelFail(e);
      try {
        transaction.rollback();
      } catch (RuntimeException rollbackFailure) {
        e.addSuppressed(rollbackFailure);
      }
      for (BucketFile file : written) {
        file.writtenInBatch = false;
        if (!committing) {
          // Nothing of this batch may stay: the channel hands all of it out again
          file.abandon();
        }
        close(file);
      }
      LOG.warn(
          "{}: batch rolled back and retried, {} file(s) it wrote to {}: {}",
          getName(),
          written.size(),
          committing ? "closed" : "cut back to their last committed batch and closed",
          e.toString());
      throw new EventDeliveryException(
          getName() + ": could not write a batch to " + config.root(), e);
    } finally {
      transaction.close();
    }
  }

  /**
   * The open file of the event's bucket, opened (and the least recently written one closed) if
   * needed.
   */
  private BucketFile fileFor(Map<String, String> headers, long now) throws IOException {
    long timestamp = EpochMillis.parse(headers.get(Headers.TIMESTAMP));
    if (timestamp == EpochMillis.INVALID) {
      timestamp = now;
    }
    if (timestamp < dayStart || timestamp >= dayEnd) {
      LocalDate day = Instant.ofEpochMilli(timestamp).atZone(config.timeZone()).toLocalDate();
      dayStart = day.atStartOfDay(config.timeZone()).toInstant().toEpochMilli();
      dayEnd = day.plusDays(1).atStartOfDay(config.timeZone()).toInstant().toEpochMilli();
      dayDir = "dt=" + day;
    }
    String host = headers.get(Headers.HOST);
    String bucket =
        dayDir + "/host=" + (host == null || host.isEmpty() ? HostNames.UNKNOWN_HOST : host);
    BucketFile file = open.get(bucket);
    if (file == null) {
      if (open.size() >= config.maxOpenFiles()) {
        open.values().stream()
            .filter(f -> !f.writtenInBatch)
            .min((a, b) -> Long.compare(a.lastWrite, b.lastWrite))
            .ifPresent(this::close);
      }
      file = openFile(bucket, now);
      open.put(bucket, file);
    }
    return file;
  }

  private BucketFile openFile(String bucket, long now) throws IOException {
    Path dir = new Path(config.root().toString() + "/" + bucket);
    while (true) {
      String name = config.filePrefix() + "." + nextFileNumber++ + suffix;
      Path inUse = new Path(dir, IN_USE_PREFIX + name + IN_USE_SUFFIX);
      try {
        FSDataOutputStream raw = fs.create(inUse, false);
        counter.incrementConnectionCreatedCount();
        return new BucketFile(
            bucket,
            inUse,
            new Path(dir, name),
            raw,
            codec == null ? null : codec.createOutputStream(raw),
            now);
      } catch (FileAlreadyExistsException e) {
        // A number a restarted agent had already used: take the next one.
      } catch (IOException e) {
        counter.incrementConnectionFailedCount();
        throw e;
      }
    }
  }

  /**
   * Finds (once) the in-progress files of this sink's prefix that an earlier run left open, and
   * closes and publishes those whose lease HDFS has recovered; the rest are tried again on the next
   * roll check. Without this, what a killed agent had flushed stays in files named {@code
   * _<name>.tmp}, which readers skip.
   */
  private void recoverOrphans() {
    if (orphanSearchPending) {
      try {
        for (Path file :
            InProgressFiles.findInLayout(
                fs,
                new Path(config.root()),
                config.filePrefix(),
                clock.millis() - ORPHAN_LOOKBACK_MILLIS)) {
          if (fileNumber(file.getName()) < firstFileNumber) {
            orphans.add(file);
          }
        }
        orphanSearchPending = false;
        if (!orphans.isEmpty()) {
          LOG.warn(
              "{}: {} file(s) of {} left in progress by an earlier run (a crash?); recovering their "
                  + "leases and publishing them: {}",
              getName(),
              orphans.size(),
              config.filePrefix(),
              orphans);
        }
      } catch (IOException e) {
        LOG.warn(
            "{}: could not look for files an earlier run left in progress, trying again: {}",
            getName(),
            e.toString());
        return;
      }
    }
    for (Iterator<Path> it = orphans.iterator(); it.hasNext(); ) {
      Path file = it.next();
      try {
        if (!InProgressFiles.recoverLease(fs, file)) {
          continue;
        }
        Path published = InProgressFiles.publish(fs, file);
        it.remove();
        if (published != null) {
          counter.incrementRecoveredFileCount();
          LOG.info("{}: recovered {} and published it as {}", getName(), file, published);
        }
      } catch (IOException e) {
        LOG.warn("{}: could not recover {} yet: {}", getName(), file, e.toString());
      }
    }
  }

  /**
   * The number in {@code _<prefix>.<number>.<ext>.tmp}, or Long.MAX_VALUE when there is none (not
   * ours to touch).
   */
  private long fileNumber(String name) {
    int start = InProgressFiles.IN_USE_PREFIX.length() + config.filePrefix().length() + 1;
    int end = start;
    while (end < name.length() && Character.isDigit(name.charAt(end))) {
      end++;
    }
    if (end == start || end - start > 18) {
      return Long.MAX_VALUE;
    }
    return Long.parseLong(name.substring(start, end));
  }

  /** Closes the files that are too old or idle too long. */
  private void closeDue(long now) {
    List<BucketFile> due = new ArrayList<>();
    for (BucketFile file : open.values()) {
      if ((config.rollMillis() > 0 && now - file.opened >= config.rollMillis())
          || (config.idleMillis() > 0 && now - file.lastWrite >= config.idleMillis())) {
        due.add(file);
      }
    }
    close(due);
  }

  /** Closes and renames a file; when HDFS refuses, keeps it for {@link #retryUnfinished()}. */
  private void close(BucketFile file) {
    open.remove(file.bucket, file);
    closed(file, file.finish(fs));
  }

  /**
   * Closes and renames files side by side: each close waits on HDFS (the last packet's
   * acknowledgements, then the NameNode completing the file), and a sink holds a file per host, so
   * one at a time a stop or a roll of all of them would take one wait per host.
   */
  private void close(List<BucketFile> files) {
    if (files.size() <= 1) {
      files.forEach(this::close);
      return;
    }
    List<Future<Boolean>> finishing = new ArrayList<>(files.size());
    for (BucketFile file : files) {
      open.remove(file.bucket, file);
      finishing.add(closers.submit(() -> file.finish(fs)));
    }
    for (int i = 0; i < files.size(); i++) {
      boolean finished;
      try {
        finished = finishing.get(i).get();
      } catch (ExecutionException e) {
        LOG.warn("could not close {} yet: {}", files.get(i).inUse, e.getCause().toString());
        finished = false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        finished = false;
      }
      closed(files.get(i), finished);
    }
  }

  private void closed(BucketFile file, boolean finished) {
    if (finished) {
      counter.incrementConnectionClosedCount();
    } else {
      counter.incrementConnectionFailedCount();
      unfinished.add(file);
    }
  }

  private void retryUnfinished() {
    for (Iterator<BucketFile> it = unfinished.iterator(); it.hasNext(); ) {
      BucketFile file = it.next();
      if (file.finish(fs)) {
        it.remove();
        counter.incrementConnectionClosedCount();
      }
    }
  }

  /** One open file of one bucket. */
  private static final class BucketFile {
    final String bucket;
    final Path inUse;
    Path done;
    final FSDataOutputStream raw;

    /** What bodies are written to: the compressor, or the raw stream without one. */
    final OutputStream out;

    final CompressionOutputStream compressed;
    final long opened;
    long lastWrite;
    long bytes;

    /** The compressor has finished its block; the next write starts a new one. */
    boolean blockFinished;

    /** The file's length after the last flush. */
    long flushedLength;

    /** The file's length after the last batch whose transaction committed: what it may keep. */
    long committedLength;

    /**
     * Abandoned by a failed batch: closed without writing what is buffered, then cut back to {@link
     * #committedLength}.
     */
    boolean abandoned;

    boolean cut;

    boolean writtenInBatch;
    boolean streamClosed;
    boolean leaseToRecover;

    BucketFile(
        String bucket,
        Path inUse,
        Path done,
        FSDataOutputStream raw,
        CompressionOutputStream compressed,
        long now) {
      this.bucket = bucket;
      this.inUse = inUse;
      this.done = done;
      this.raw = raw;
      this.compressed = compressed;
      this.out = compressed == null ? raw : compressed;
      this.opened = now;
      this.lastWrite = now;
    }

    void append(byte[] body, long now) throws IOException {
      if (blockFinished) {
        compressed.resetState();
        blockFinished = false;
      }
      out.write(body);
      out.write('\n');
      bytes += body.length + 1;
      lastWrite = now;
    }

    /** Ends the batch's compressed block and makes everything written visible to readers. */
    void flush() throws IOException {
      if (compressed != null) {
        compressed.finish();
        blockFinished = true;
      }
      raw.hflush();
      flushedLength = raw.getPos();
    }

    /** Marks the file to be cut back to its last committed batch when it is finished. */
    void abandon() {
      abandoned = true;
    }

    /**
     * Closes the stream (once) and renames the file to its final name; false if HDFS refused
     * either. A close that fails leaves the file open for writing in the NameNode's eyes; its lease
     * is then recovered (which closes it at the length the DataNodes have, everything flushed)
     * before the rename.
     */
    boolean finish(FileSystem fs) {
      try {
        if (!streamClosed) {
          streamClosed = true;
          try {
            // An abandoned file's compressor holds the failed batch's last events: left unwritten
            (abandoned ? raw : out).close();
          } catch (IOException e) {
            LOG.warn("could not close {}, recovering its lease: {}", inUse, e.toString());
            leaseToRecover = true;
          }
        }
        if (leaseToRecover) {
          if (fs instanceof DistributedFileSystem dfs && !dfs.recoverLease(inUse)) {
            return false;
          }
          leaseToRecover = false;
        }
        if (abandoned && !cut) {
          if (committedLength == 0) {
            fs.delete(inUse, false);
            cut = true;
            LOG.info("{}: deleted, no batch written to it committed", inUse);
            return true;
          }
          long length = fs.getFileStatus(inUse).getLen();
          if (length > committedLength) {
            // false means HDFS finishes the cut in the background; the rename below may proceed
            fs.truncate(inUse, committedLength);
            LOG.info(
                "{}: cut from {} to {} bytes, what its committed batches wrote",
                inUse,
                length,
                committedLength);
          }
          cut = true;
        }
        while (!fs.rename(inUse, done)) {
          if (!fs.exists(inUse)) {
            // Renamed already (an earlier attempt whose reply was lost): nothing left to do.
            return true;
          }
          if (!fs.exists(done)) {
            return false;
          }
          // The final name is taken (a number reused after a restart): add to it.
          done = new Path(done.getParent(), done.getName().replaceFirst("(\\.[^.]+)$", "-1$1"));
        }
        return true;
      } catch (IOException e) {
        LOG.warn("could not close {} yet: {}", inUse, e.toString());
        return false;
      }
    }
  }
}
