package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code ApiRole}: a role instance, e.g. one Flume {@code AGENT} or one {@code KAFKA_BROKER}. Its
 * role config group comes from {@code roleConfigGroupRef}, never from a naming rule.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiRole(
    String name,
    String type,
    ApiHostRef hostRef,
    ApiServiceRef serviceRef,
    String roleState,
    String healthSummary,
    String configStalenessStatus,
    ApiRoleConfigGroupRef roleConfigGroupRef,
    String commissionState,
    Boolean maintenanceMode,
    String entityStatus) {

  /** The name of the role config group this role belongs to, or null if the server did not say. */
  @JsonIgnore
  public String roleConfigGroupName() {
    return roleConfigGroupRef == null ? null : roleConfigGroupRef.roleConfigGroupName();
  }
}
