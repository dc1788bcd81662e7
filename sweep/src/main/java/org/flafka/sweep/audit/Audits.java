package org.flafka.sweep.audit;

import java.util.Optional;
import java.util.ServiceLoader;

/** Finds the audit a sweep runs after each trial. */
public final class Audits {
  private Audits() {}

  /**
   * A TrialAudit another module registered with the {@link ServiceLoader} (to audit a target the
   * built-in one cannot read), else {@link LoadMarkAudit}.
   */
  public static Optional<TrialAudit> discover() {
    return discover(new LoadMarkAudit());
  }

  /**
   * A TrialAudit another module registered with the {@link ServiceLoader}, else {@code builtIn}
   * (e.g. a {@link LoadMarkAudit} with a secure cluster's client settings).
   */
  public static Optional<TrialAudit> discover(TrialAudit builtIn) {
    return Optional.of(ServiceLoader.load(TrialAudit.class).findFirst().orElse(builtIn));
  }
}
