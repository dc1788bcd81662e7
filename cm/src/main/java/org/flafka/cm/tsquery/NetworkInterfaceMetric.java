package org.flafka.cm.tsquery;

/**
 * Host network metrics in CM ("Network Interface Metrics"; docs/reference/cloudera-manager.md): per
 * interface, summed per host with {@code total_..._across_network_interfaces}.
 */
public enum NetworkInterfaceMetric implements CmMetric {
  BYTES_RECEIVE_RATE("bytes_receive_rate"),
  BYTES_TRANSMIT_RATE("bytes_transmit_rate");

  private final String metricName;

  NetworkInterfaceMetric(String metricName) {
    this.metricName = metricName;
  }

  @Override
  public String metricName() {
    return metricName;
  }

  @Override
  public Entity entity() {
    return Entity.NETWORK_INTERFACE;
  }

  @Override
  public Verification verification() {
    return Verification.DOCUMENTED;
  }
}
