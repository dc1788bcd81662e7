package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** {@code ApiServiceRef}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiServiceRef(
    String peerName,
    String clusterName,
    String serviceName,
    String serviceDisplayName,
    String serviceType) {}
