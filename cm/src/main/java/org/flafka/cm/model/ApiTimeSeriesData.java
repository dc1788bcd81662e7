package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/** {@code ApiTimeSeriesData}: one point; {@code timestamp} is UTC ISO-8601. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiTimeSeriesData(
    String timestamp,
    Double value,
    String type,
    ApiTimeSeriesAggregateStatistics aggregateStatistics) {

  @JsonIgnore
  public Instant instant() {
    return Instant.parse(timestamp);
  }
}
