package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** {@code ApiTimeSeriesResponse}: the result of one {@code ;}-separated tsquery statement. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiTimeSeriesResponse(
    List<ApiTimeSeries> timeSeries, List<String> warnings, String timeSeriesQuery) {
  public ApiTimeSeriesResponse {
    timeSeries = timeSeries == null ? List.of() : List.copyOf(timeSeries);
  }
}
