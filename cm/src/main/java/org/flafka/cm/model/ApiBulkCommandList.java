package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * {@code ApiBulkCommandList}: the answer to a role command ({@code .../roleCommands/restart}). Not
 * atomic: {@code items} are the commands that started, {@code errors} name the roles on which it
 * could not.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiBulkCommandList(List<ApiCommand> items, List<String> errors) {
  public ApiBulkCommandList {
    items = items == null ? List.of() : List.copyOf(items);
    errors = errors == null ? List.of() : List.copyOf(errors);
  }
}
