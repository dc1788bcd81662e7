package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** {@code ApiCluster} (the fields the kit reads; unknown fields are ignored). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiCluster(
    String name,
    String displayName,
    String fullVersion,
    Boolean maintenanceMode,
    String entityStatus,
    String clusterType) {}
