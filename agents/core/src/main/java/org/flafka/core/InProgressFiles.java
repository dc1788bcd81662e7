package org.flafka.core;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * The in-progress files of the core's layout ({@code _<name>.tmp}, which Hive, Impala and Spark
 * skip) that a writer left behind: found, closed by HDFS lease recovery (the NameNode closes the
 * file at the length the DataNodes hold, which includes everything the writer flushed) and renamed
 * to {@code <name>}, so what they hold becomes visible. {@link HdfsBucketSink} does this for its
 * own files when it starts; {@code flafka hdfs recover} does it by hand for a path.
 */
public final class InProgressFiles {

  static final String IN_USE_PREFIX = "_";
  static final String IN_USE_SUFFIX = ".tmp";

  private InProgressFiles() {}

  /** Whether {@code name} is an in-progress file's name, and of {@code filePrefix} if not null. */
  public static boolean isInProgress(String name, String filePrefix) {
    return name.startsWith(IN_USE_PREFIX)
        && name.endsWith(IN_USE_SUFFIX)
        && name.length() > IN_USE_PREFIX.length() + IN_USE_SUFFIX.length()
        && (filePrefix == null || name.startsWith(IN_USE_PREFIX + filePrefix + "."));
  }

  /** The published name of an in-progress file: without the leading _ and the trailing .tmp. */
  public static String publishedName(String inProgressName) {
    return inProgressName.substring(
        IN_USE_PREFIX.length(), inProgressName.length() - IN_USE_SUFFIX.length());
  }

  /**
   * The in-progress files under {@code root}'s {@code dt=}/{@code host=} directories whose names
   * start with {@code _<filePrefix>.} (any in-progress file when null). Only host directories
   * changed at or after {@code changedSinceMillis} are listed: creating a file changes its
   * directory, so a writer's files are in the directories changed since it last started, and a
   * start need not list years of buckets.
   */
  public static List<Path> findInLayout(
      FileSystem fs, Path root, String filePrefix, long changedSinceMillis) throws IOException {
    List<Path> found = new ArrayList<>();
    for (FileStatus day : list(fs, root)) {
      if (!day.isDirectory() || !day.getPath().getName().startsWith("dt=")) {
        continue;
      }
      for (FileStatus host : list(fs, day.getPath())) {
        if (!host.isDirectory()
            || !host.getPath().getName().startsWith("host=")
            || host.getModificationTime() < changedSinceMillis) {
          continue;
        }
        for (FileStatus file : list(fs, host.getPath())) {
          if (file.isFile() && isInProgress(file.getPath().getName(), filePrefix)) {
            found.add(file.getPath());
          }
        }
      }
    }
    return found;
  }

  /** Every in-progress file at or under {@code path} (a file or a directory, recursively). */
  public static List<Path> findUnder(FileSystem fs, Path path) throws IOException {
    List<Path> found = new ArrayList<>();
    FileStatus status = fs.getFileStatus(path);
    if (status.isFile()) {
      if (isInProgress(path.getName(), null)) {
        found.add(path);
      }
      return found;
    }
    for (FileStatus child : list(fs, path)) {
      if (child.isDirectory()) {
        found.addAll(findUnder(fs, child.getPath()));
      } else if (isInProgress(child.getPath().getName(), null)) {
        found.add(child.getPath());
      }
    }
    return found;
  }

  private static FileStatus[] list(FileSystem fs, Path dir) throws IOException {
    try {
      return fs.listStatus(dir);
    } catch (FileNotFoundException e) {
      return new FileStatus[0];
    }
  }

  /**
   * Asks HDFS to close {@code inProgress} if a writer still holds it open; true when it is closed
   * (at once, or by an earlier request), false while the NameNode is still recovering its last
   * block. Other file systems have no leases: always true.
   */
  public static boolean recoverLease(FileSystem fs, Path inProgress) throws IOException {
    if (fs instanceof DistributedFileSystem dfs) {
      return dfs.recoverLease(inProgress) || dfs.isFileClosed(inProgress);
    }
    return true;
  }

  /**
   * Renames a closed in-progress file to its published name, or that name with {@code -1} (and so
   * on) before its extension when the name is taken; returns the new path, or null when the file is
   * gone (published already).
   */
  public static Path publish(FileSystem fs, Path inProgress) throws IOException {
    Path done = new Path(inProgress.getParent(), publishedName(inProgress.getName()));
    while (!fs.rename(inProgress, done)) {
      if (!fs.exists(inProgress)) {
        return null;
      }
      if (!fs.exists(done)) {
        throw new IOException("HDFS refused to rename " + inProgress + " to " + done);
      }
      done = new Path(done.getParent(), done.getName().replaceFirst("(\\.[^.]+)?$", "-1$1"));
    }
    return done;
  }
}
