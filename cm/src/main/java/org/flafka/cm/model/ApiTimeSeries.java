package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** {@code ApiTimeSeries}: one stream (one metric of one entity); {@code data} may be empty. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiTimeSeries(ApiTimeSeriesMetadata metadata, List<ApiTimeSeriesData> data) {
  public ApiTimeSeries {
    data = data == null ? List.of() : List.copyOf(data);
  }
}
