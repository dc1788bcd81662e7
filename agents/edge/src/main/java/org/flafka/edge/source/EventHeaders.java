package org.flafka.edge.source;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The header map of the events the edge source creates: names and values in small arrays, in the
 * order they were first put. A {@code Map} like any other for Flume's interceptors, selectors and
 * channels.
 *
 * <p>Why not a {@code HashMap}: an edge event carries the contract's ~15 headers, and the Kafka
 * sink thread reads every one of them right after the source thread wrote them. A {@code HashMap}
 * spreads them over a 32-slot table and 15 entry objects, each a cache miss on the sink's core;
 * walking them was 10% of the edge agent's samples (docs/benchmarks.md, "Edge agent over TCP").
 * Here they are three arrays (names, their hash codes, values): a name is found by a scan over the
 * hash codes, short because names are few, and the sink reads the headers with {@link #forEach},
 * which walks the arrays.
 *
 * <p>Null names are refused; null values are kept, as {@code HashMap} would. Not thread-safe, like
 * Flume's own.
 */
public final class EventHeaders extends AbstractMap<String, String> {

  private String[] names;

  /** The names' hash codes (cached in each String), compared before the names themselves. */
  private int[] hashes;

  private String[] values;
  private int size;

  /**
   * One bit per name held, at its hash code's low six bits: a put of a name whose bit is clear
   * (most of an event's puts, each a name not there yet) skips the scan.
   */
  private long present;

  /** Structural changes, so an iterator fails fast like {@code HashMap}'s. */
  private int modifications;

  /**
   * @param capacity the headers expected; more are taken by growing
   */
  public EventHeaders(int capacity) {
    names = new String[capacity];
    hashes = new int[capacity];
    values = new String[capacity];
  }

  @Override
  public int size() {
    return size;
  }

  /**
   * A walk over the arrays, no entry objects: how the Kafka sink reads every header of every event.
   */
  @Override
  public void forEach(BiConsumer<? super String, ? super String> action) {
    Objects.requireNonNull(action);
    int expectedModifications = modifications;
    for (int i = 0; i < size && modifications == expectedModifications; i++) {
      action.accept(names[i], values[i]);
    }
    if (modifications != expectedModifications) {
      throw new ConcurrentModificationException();
    }
  }

  private int indexOf(Object name) {
    if (name == null) {
      return -1;
    }
    int hash = name.hashCode();
    if ((present & (1L << hash)) == 0) {
      return -1;
    }
    for (int i = 0; i < size; i++) {
      // most puts add a name not there yet: comparing ints first keeps that scan cheap
      if (hashes[i] == hash && names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public boolean containsKey(Object name) {
    return indexOf(name) >= 0;
  }

  @Override
  public String get(Object name) {
    int i = indexOf(name);
    return i < 0 ? null : values[i];
  }

  @Override
  public String getOrDefault(Object name, String defaultValue) {
    int i = indexOf(name);
    return i < 0 ? defaultValue : values[i];
  }

  @Override
  public String put(String name, String value) {
    int i = indexOf(Objects.requireNonNull(name, "header name"));
    if (i >= 0) {
      String previous = values[i];
      values[i] = value;
      return previous;
    }
    append(name, value);
    return null;
  }

  /**
   * One scan instead of {@code Map}'s default get-then-put; the syslog interceptor puts most
   * headers this way.
   */
  @Override
  public String putIfAbsent(String name, String value) {
    int i = indexOf(Objects.requireNonNull(name, "header name"));
    if (i < 0) {
      append(name, value);
      return null;
    }
    String current = values[i];
    if (current == null) {
      values[i] = value;
    }
    return current;
  }

  private void append(String name, String value) {
    if (size == names.length) {
      int grown = Math.max(4, size * 2);
      names = Arrays.copyOf(names, grown);
      hashes = Arrays.copyOf(hashes, grown);
      values = Arrays.copyOf(values, grown);
    }
    names[size] = name;
    int hash = name.hashCode();
    hashes[size] = hash;
    present |= 1L << hash;
    values[size] = value;
    size++;
    modifications++;
  }

  @Override
  public String remove(Object name) {
    int i = indexOf(name);
    if (i < 0) {
      return null;
    }
    String previous = values[i];
    removeAt(i);
    return previous;
  }

  private void removeAt(int index) {
    int after = size - index - 1;
    System.arraycopy(names, index + 1, names, index, after);
    System.arraycopy(hashes, index + 1, hashes, index, after);
    System.arraycopy(values, index + 1, values, index, after);
    size--;
    names[size] = null;
    values[size] = null;
    // the removed name's bit stays: another name may share it, and a stale bit only costs a scan
    modifications++;
  }

  @Override
  public void clear() {
    Arrays.fill(names, 0, size, null);
    Arrays.fill(values, 0, size, null);
    size = 0;
    present = 0;
    modifications++;
  }

  @Override
  public Set<Map.Entry<String, String>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, String>> iterator() {
        return new EntryIterator();
      }

      @Override
      public int size() {
        return size;
      }

      @Override
      public void clear() {
        EventHeaders.this.clear();
      }
    };
  }

  private final class EntryIterator implements Iterator<Map.Entry<String, String>> {
    private int next;
    private int last = -1;
    private int expectedModifications = modifications;

    @Override
    public boolean hasNext() {
      return next < size;
    }

    @Override
    public Map.Entry<String, String> next() {
      if (modifications != expectedModifications) {
        throw new ConcurrentModificationException();
      }
      if (next >= size) {
        throw new NoSuchElementException();
      }
      last = next++;
      return new Entry(last);
    }

    @Override
    public void remove() {
      if (last < 0) {
        throw new IllegalStateException("next() was not called, or remove() was called twice");
      }
      if (modifications != expectedModifications) {
        throw new ConcurrentModificationException();
      }
      removeAt(last);
      next = last;
      last = -1;
      expectedModifications = modifications;
    }
  }

  /**
   * A live view of one slot: setValue writes through, as a {@code HashMap} entry's does. After a
   * header is added or removed the slot may hold another header, so the entry refuses to be used
   * instead of reading the wrong one.
   */
  private final class Entry implements Map.Entry<String, String> {
    private final int index;
    private final String name;
    private final int expectedModifications = modifications;

    Entry(int index) {
      this.index = index;
      this.name = names[index];
    }

    private int slot() {
      if (modifications != expectedModifications) {
        throw new ConcurrentModificationException(
            "headers were added or removed after this entry was read");
      }
      return index;
    }

    @Override
    public String getKey() {
      return name;
    }

    @Override
    public String getValue() {
      return values[slot()];
    }

    @Override
    public String setValue(String value) {
      int i = slot();
      String previous = values[i];
      values[i] = value;
      return previous;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Map.Entry<?, ?> entry
          && name.equals(entry.getKey())
          && Objects.equals(getValue(), entry.getValue());
    }

    @Override
    public int hashCode() {
      return name.hashCode() ^ Objects.hashCode(getValue());
    }

    @Override
    public String toString() {
      return name + "=" + getValue();
    }
  }
}
