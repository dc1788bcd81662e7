package org.flafka.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File-system helpers the stack parts and the CLI share. */
public final class Directories {
  private Directories() {}

  /**
   * Deletes {@code dir} and everything under it; a missing directory is not an error.
   *
   * @throws UncheckedIOException naming the first path that could not be deleted
   */
  public static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        try {
          Files.delete(path);
        } catch (NoSuchFileException alreadyGone) {
          // a server still shutting down removed it first
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Deletes {@code owned} (what a server created under {@code dir}), then {@code dir} too if
   * nothing else is left in it: a caller may hand a server a directory that also holds other
   * things.
   */
  static void deleteOwned(Path owned, Path dir) {
    deleteRecursively(owned);
    try (Stream<Path> left = Files.list(dir)) {
      if (left.findAny().isEmpty()) {
        Files.delete(dir);
      }
    } catch (NoSuchFileException alreadyGone) {
      // nothing to do
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + dir + ": " + e.getMessage(), e);
    }
  }

  static Path create(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "could not create directory " + dir + ": " + e.getMessage(), e);
    }
  }
}
