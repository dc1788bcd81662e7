package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code ApiTimeSeriesRequest}: the body of {@code POST /timeseries} (v11+), for queries too long
 * for a URL.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiTimeSeriesRequest(
    String query,
    String from,
    String to,
    String contentType,
    String desiredRollup,
    Boolean mustUseDesiredRollup) {}
