package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** {@code ApiTimeSeriesCrossEntityMetadata}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiTimeSeriesCrossEntityMetadata(
    String maxEntityDisplayName,
    String maxEntityName,
    String minEntityDisplayName,
    String minEntityName,
    Double numEntities) {}
