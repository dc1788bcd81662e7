package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * {@code ApiConfig}: one configuration value. The summary view carries {@code name} and {@code
 * value} of the non-default settings; the full view adds the rest. To send an update use {@link
 * ApiConfigUpdate}, whose null value is sent as JSON null (reset to default).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiConfig(
    String name,
    String value,
    Boolean required,
    @JsonProperty("default") String defaultValue,
    String displayName,
    String description,
    String relatedName,
    Boolean sensitive,
    String validationState,
    String validationMessage,
    Boolean validationWarningsSuppressed) {

  public static ApiConfig of(String name, String value) {
    return new ApiConfig(name, value, null, null, null, null, null, null, null, null, null);
  }
}
