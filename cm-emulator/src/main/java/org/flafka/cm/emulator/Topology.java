package org.flafka.cm.emulator;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The names of what the emulator pretends to manage: one cluster, one host, a FLUME service and a
 * KAFKA service with one broker role; and the time-series entities for them, with the attributes CM
 * puts on such entities (docs/reference/cloudera-manager.md: {@code attributes.entityName} is the
 * unique id; roles carry serviceName, roleType, ...).
 */
record Topology(
    String cluster,
    String hostname,
    String hostId,
    String flumeService,
    String kafkaService,
    String kafkaBrokerRole) {

  String kafkaBrokerGroup() {
    return kafkaService + "-KAFKA_BROKER-BASE";
  }

  TsEntity clusterEntity() {
    return new TsEntity(cluster, cluster, null, attributes(cluster, "CLUSTER"), Set.of());
  }

  TsEntity hostEntity() {
    Map<String, String> attributes = attributes(hostId, "HOST");
    attributes.put("hostname", hostname);
    attributes.put("hostId", hostId);
    return new TsEntity(hostId, hostname, null, attributes, Set.of(cluster));
  }

  TsEntity serviceEntity(String service, String type) {
    Map<String, String> attributes = attributes(service, "SERVICE");
    attributes.put("serviceName", service);
    attributes.put("serviceType", type);
    attributes.put("serviceDisplayName", service);
    return new TsEntity(service, service, null, attributes, Set.of(cluster));
  }

  /**
   * A role: the ancestors of its components are the role, its service, the cluster and the host.
   */
  TsEntity roleEntity(
      String role,
      String service,
      String serviceType,
      String roleType,
      String group,
      String crossEntityName) {
    Map<String, String> attributes = roleAttributes(role, service, serviceType, roleType, "ROLE");
    attributes.put("roleName", role);
    attributes.put("roleConfigGroup", group);
    return new TsEntity(role, role, crossEntityName, attributes, Set.of(service, cluster, hostId));
  }

  /** Attributes of an entity below a role (a Flume component, a broker-topic). */
  Map<String, String> roleAttributes(
      String id, String service, String serviceType, String roleType, String category) {
    Map<String, String> attributes = attributes(id, category);
    attributes.put("serviceName", service);
    attributes.put("serviceType", serviceType);
    attributes.put("serviceDisplayName", service);
    attributes.put("hostname", hostname);
    attributes.put("hostId", hostId);
    attributes.put("rackId", "/default");
    if (roleType != null) {
      attributes.put("roleType", roleType);
    }
    return attributes;
  }

  Map<String, String> attributes(String entityName, String category) {
    Map<String, String> attributes = new HashMap<>();
    attributes.put("entityName", entityName);
    attributes.put("category", category);
    attributes.put("clusterName", cluster);
    attributes.put("clusterDisplayName", cluster);
    attributes.put("active", "true");
    return attributes;
  }
}
