package org.flafka.render;

import java.util.List;
import java.util.Map;

/**
 * What the variables' own rules cannot say: combinations the templates refuse, and variables that
 * are no longer read but that an old inventory may still set. {@link AgentTemplates#resolve} checks
 * them before rendering; Ansible's flafka_edge role checks the same in its tasks (Ansible renders
 * the template itself, and ignores a variable no template reads).
 */
final class VariableRules {

  private VariableRules() {}

  /** Variables no longer read, by tier: name to what to do instead. */
  private static final Map<Tier, Map<String, String>> RETIRED =
      Map.of(
          Tier.EDGE,
          Map.of(
              "edge_tls_keystore_password",
              "the edge no longer renders the TLS listener's key store password into its"
                  + " configuration. Fix: remove it, and put the password in kafka_secrets_file as"
                  + " syslog.tls.keystore.password (with Ansible: set"
                  + " flafka_agent_edge_tls_keystore_password, from Vault)."),
          Tier.CORE,
          Map.of());

  /** The error for a retired variable, or null when {@code name} was never one. */
  static TemplateVariableException retired(Tier tier, String name) {
    String fix = RETIRED.get(tier).get(name);
    return fix == null
        ? null
        : new TemplateVariableException(
            "Variable '" + name + "' of the " + tier.id() + " template is no longer read: " + fix);
  }

  /**
   * Checks the combinations of the resolved variables.
   *
   * @throws TemplateVariableException naming the variables and the fix
   */
  static void check(Tier tier, Map<String, Object> resolved) {
    if (tier == Tier.EDGE
        && "stock".equals(resolved.get("edge_source_impl"))
        && ((List<?>) resolved.get("edge_listeners")).contains("tls")) {
      throw new TemplateVariableException(
          "edge_listeners includes tls but edge_source_impl is stock: Flume's syslog source takes"
              + " the key store password only in clear in the configuration, which the kit never"
              + " renders. Fix: set edge_source_impl to flafka (its TLS listener reads the password"
              + " from kafka_secrets_file), or remove tls from edge_listeners.");
    }
  }
}
