package org.flafka.sweep.search;

/** One point a strategy evaluated, and what it gave. */
public record Evaluation(Point point, Outcome outcome) {}
