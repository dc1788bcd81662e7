package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The {@code {"items": [...]}} wrapper every CM list uses ({@code ApiListBase} in the spec:
 * ApiClusterList, ApiServiceList, ApiRoleList, ApiRoleConfigGroupList, ApiConfigList,
 * ApiRoleNameList, ApiDashboardList, ...). Never null: a missing {@code items} reads as an empty
 * list.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiList<T>(List<T> items) {
  public ApiList {
    items = items == null ? List.of() : List.copyOf(items);
  }
}
