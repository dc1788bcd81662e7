package org.flafka.cm.tsquery;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A tsquery {@code WHERE} predicate: {@code attribute = value} terms joined by {@code AND}. Values
 * of name attributes are always double-quoted (CM requires quotes for values with spaces and
 * recommends them for {@code xxxName}); enum attributes ({@code category}, {@code roleType}, {@code
 * serviceType}) are bare upper-case tokens.
 */
public final class TsPredicate {

  /** Attributes the kit filters on (docs/reference/cloudera-manager.md). */
  public enum Attribute {
    ENTITY_NAME("entityName", true),
    SERVICE_NAME("serviceName", true),
    ROLE_NAME("roleName", true),
    HOSTNAME("hostname", true),
    HOST_ID("hostId", true),
    CLUSTER_NAME("clusterName", true),
    KAFKA_TOPIC_NAME("kafkaTopicName", true),
    ROLE_TYPE("roleType", false),
    SERVICE_TYPE("serviceType", false);

    private final String name;
    private final boolean quoted;

    Attribute(String name, boolean quoted) {
      this.name = name;
      this.quoted = quoted;
    }
  }

  /** Values of the {@code category} attribute. */
  public enum Category {
    HOST(Verification.LIVE),
    ROLE(Verification.LIVE),
    SERVICE(Verification.DOCUMENTED),
    CLUSTER(Verification.LIVE),
    RACK(Verification.LIVE),
    KAFKA_TOPIC(Verification.DOCUMENTED),
    /**
     * Flume component categories: listed as values of {@code category} on CM's "tsquery Language"
     * page ("Time Series Attributes"), whose "Time Series Entities and their Attributes" table
     * gives Flume Source/Channel/Sink entities {@code roleName}, {@code flumeComponent} and {@code
     * agentName} (docs/reference/cloudera-manager.md).
     */
    FLUME_SOURCE(Verification.DOCUMENTED),
    FLUME_CHANNEL(Verification.DOCUMENTED),
    FLUME_SINK(Verification.DOCUMENTED);

    private final Verification verification;

    Category(Verification verification) {
      this.verification = verification;
    }

    public Verification verification() {
      return verification;
    }
  }

  private static final Pattern TOKEN = Pattern.compile("[A-Z][A-Z0-9_]*");

  private final List<String> terms;
  private final Verification verification;

  private TsPredicate(List<String> terms, Verification verification) {
    this.terms = List.copyOf(terms);
    this.verification = verification;
  }

  /** {@code attribute = value}, quoting and escaping the value where the attribute needs it. */
  public static TsPredicate eq(Attribute attribute, String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("tsquery " + attribute.name + " value must not be empty");
    }
    String rendered;
    if (attribute.quoted) {
      rendered = "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    } else if (TOKEN.matcher(value).matches()) {
      rendered = value;
    } else {
      throw new IllegalArgumentException(
          "tsquery "
              + attribute.name
              + " value '"
              + value
              + "' must be an upper-case type name such as AGENT or KAFKA_BROKER");
    }
    return new TsPredicate(List.of(attribute.name + " = " + rendered), Verification.LIVE);
  }

  /** {@code category = <category>}. */
  public static TsPredicate category(Category category) {
    return new TsPredicate(List.of("category = " + category.name()), category.verification());
  }

  /** Both this and {@code other}. */
  public TsPredicate and(TsPredicate other) {
    List<String> joined = new ArrayList<>(terms);
    joined.addAll(other.terms);
    return new TsPredicate(joined, verification.weakest(other.verification));
  }

  public Verification verification() {
    return verification;
  }

  @Override
  public String toString() {
    return String.join(" AND ", terms);
  }
}
