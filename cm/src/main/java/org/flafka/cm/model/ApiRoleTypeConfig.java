package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** {@code ApiRoleTypeConfig}: legacy per-role-type settings inside {@link ApiServiceConfig}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiRoleTypeConfig(String roleType, List<ApiConfig> items) {}
