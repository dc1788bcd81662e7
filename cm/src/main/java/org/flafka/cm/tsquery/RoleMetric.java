package org.flafka.cm.tsquery;

/**
 * Process metrics CM keeps for every role, whatever its service: CPU seconds per second in user and
 * kernel mode. Public code queries them per role ({@code SELECT cpu_system_rate + cpu_user_rate
 * WHERE category=ROLE AND serviceName=hue}; {@code SELECT LAST(INTEGRAL(cpu_user_rate)) WHERE
 * category=ROLE}, docs/reference/cloudera-manager.md).
 */
public enum RoleMetric implements CmMetric {
  CPU_USER_RATE("cpu_user_rate"),
  CPU_SYSTEM_RATE("cpu_system_rate");

  private final String metricName;

  RoleMetric(String metricName) {
    this.metricName = metricName;
  }

  @Override
  public String metricName() {
    return metricName;
  }

  @Override
  public Entity entity() {
    return Entity.ROLE;
  }

  @Override
  public Verification verification() {
    return Verification.DOCUMENTED;
  }
}
