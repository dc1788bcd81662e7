package org.flafka.render;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The two kinds of Flafka agent, each with one template and one defaults file under {@code
 * agents/<tier>/templates/}.
 */
public enum Tier {
  /** Syslog listeners to Kafka, one or more per site. */
  EDGE,
  /** Kafka to HDFS, in the data centre. */
  CORE;

  /** The lower-case name used in file names, variable prefixes and on the command line. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The tier named {@code id} (case-insensitive), or an error listing the valid names. */
  public static Tier fromId(String id) {
    for (Tier tier : values()) {
      if (tier.id().equalsIgnoreCase(id.trim())) {
        return tier;
      }
    }
    throw new TemplateVariableException(
        "Unknown tier '"
            + id
            + "': use one of "
            + Arrays.stream(values()).map(Tier::id).collect(Collectors.joining(", ")));
  }

  String templateResource() {
    return "templates/" + id() + "/" + id() + ".properties.j2";
  }

  String defaultsResource() {
    return "templates/" + id() + "/" + id() + "-defaults.yml";
  }
}
