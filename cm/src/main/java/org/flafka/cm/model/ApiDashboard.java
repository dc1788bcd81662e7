package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code ApiDashboard}: a CM dashboard. {@code json} is an opaque blob (the API says so): export it
 * from a CM of the same major version with {@code GET /timeseries/dashboards/{name}} and import it
 * unchanged.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiDashboard(String name, String json) {}
