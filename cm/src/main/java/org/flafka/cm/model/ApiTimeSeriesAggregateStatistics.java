package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** {@code ApiTimeSeriesAggregateStatistics}: present on cross-entity and rolled-up points. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiTimeSeriesAggregateStatistics(
    String sampleTime,
    Double sampleValue,
    Double count,
    Double min,
    String minTime,
    Double max,
    String maxTime,
    Double mean,
    Double stdDev,
    ApiTimeSeriesCrossEntityMetadata crossEntityMetadata) {}
