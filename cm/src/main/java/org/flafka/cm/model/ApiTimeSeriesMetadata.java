package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * {@code ApiTimeSeriesMetadata}. {@code entityName} is the display name; {@code
 * attributes.entityName} is the unique id (for roles, the role name). Units are e.g. {@code
 * ["bytes"]} / {@code ["seconds"]}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiTimeSeriesMetadata(
    String metricName,
    String entityName,
    String startTime,
    String endTime,
    Map<String, String> attributes,
    List<String> unitNumerators,
    List<String> unitDenominators,
    String expression,
    String alias,
    Long metricCollectionFrequencyMs,
    String rollupUsed) {

  /** An attribute such as {@code hostname}, {@code roleName} or {@code category}, or null. */
  public String attribute(String name) {
    return attributes == null ? null : attributes.get(name);
  }
}
