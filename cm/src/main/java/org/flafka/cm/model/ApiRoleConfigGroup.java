package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** {@code ApiRoleConfigGroup}: {@code base} is true for the default group of its role type. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiRoleConfigGroup(
    String name,
    String displayName,
    String roleType,
    Boolean base,
    ApiServiceRef serviceRef,
    ApiList<ApiConfig> config) {

  @JsonIgnore
  public boolean isBase() {
    return Boolean.TRUE.equals(base);
  }
}
