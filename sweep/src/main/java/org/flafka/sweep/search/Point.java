package org.flafka.sweep.search;

import java.util.ArrayList;
import java.util.List;

/** A point of a search space: for each dimension, the index of its value. */
public record Point(List<Integer> coordinates) {
  public Point {
    coordinates = List.copyOf(coordinates);
  }

  public static Point of(int... coordinates) {
    List<Integer> list = new ArrayList<>();
    for (int coordinate : coordinates) {
      list.add(coordinate);
    }
    return new Point(list);
  }

  public int get(int dimension) {
    return coordinates.get(dimension);
  }

  /** This point with dimension {@code dimension} at {@code index}. */
  public Point with(int dimension, int index) {
    List<Integer> copy = new ArrayList<>(coordinates);
    copy.set(dimension, index);
    return new Point(copy);
  }

  @Override
  public String toString() {
    return coordinates.toString();
  }
}
