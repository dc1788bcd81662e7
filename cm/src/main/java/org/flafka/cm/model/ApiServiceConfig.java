package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * {@code ApiServiceConfig}: service-level settings ({@code items}); {@code roleTypeConfigs} is
 * legacy (since v3 role-type settings live in role config groups).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiServiceConfig(List<ApiConfig> items, List<ApiRoleTypeConfig> roleTypeConfigs) {
  public ApiServiceConfig {
    items = items == null ? List.of() : List.copyOf(items);
  }
}
