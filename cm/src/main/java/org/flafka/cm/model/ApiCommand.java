package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code ApiCommand}: an asynchronous CM command such as a restart. Poll {@code GET /commands/{id}}
 * until {@code active} is false, then {@code success} says how it ended and {@code resultMessage}
 * why. An id of {@value #SYNCHRONOUS_ID} marks a synchronous command whose result is already here.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiCommand(
    Long id,
    String name,
    String startTime,
    String endTime,
    Boolean active,
    Boolean success,
    String resultMessage,
    String resultDataUrl,
    ApiClusterRef clusterRef,
    ApiServiceRef serviceRef,
    ApiRoleRef roleRef,
    ApiHostRef hostRef,
    ApiCommand parent,
    ApiList<ApiCommand> children,
    Boolean canRetry) {

  /** The id CM gives a command that ran synchronously (cm_api's {@code SYNCHRONOUS_COMMAND_ID}). */
  public static final long SYNCHRONOUS_ID = -1;

  @JsonIgnore
  public boolean isActive() {
    return Boolean.TRUE.equals(active);
  }

  @JsonIgnore
  public boolean isSuccess() {
    return Boolean.TRUE.equals(success);
  }

  @JsonIgnore
  public boolean isSynchronous() {
    return id != null && id == SYNCHRONOUS_ID;
  }
}
