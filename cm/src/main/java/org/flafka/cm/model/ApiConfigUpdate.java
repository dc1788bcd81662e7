package org.flafka.cm.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One element of a config PUT body ({@code {"items":[{"name":...,"value":...}]}}). A PUT is a
 * partial update: keys not listed keep their values; a null value is sent as JSON {@code null} and
 * resets the key to its default (docs/reference/cloudera-manager.md, quoting the v19 API docs).
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ApiConfigUpdate(String name, String value) {}
