package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** {@code ApiService}: {@code type} is e.g. {@code FLUME} or {@code KAFKA}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiService(
    String name,
    String type,
    String displayName,
    ApiClusterRef clusterRef,
    String serviceState,
    String healthSummary,
    String configStalenessStatus,
    Boolean maintenanceMode,
    String entityStatus) {}
