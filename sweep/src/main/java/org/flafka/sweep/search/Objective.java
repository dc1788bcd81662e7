package org.flafka.sweep.search;

/** The function a strategy maximises. The sweep runs trials; tests use synthetic landscapes. */
@FunctionalInterface
public interface Objective {
  Outcome evaluate(Point point);
}
