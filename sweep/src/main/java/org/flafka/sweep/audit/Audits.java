package org.flafka.sweep.audit;

import java.util.Optional;
import java.util.ServiceLoader;

/** Finds the {@link TrialAudit} on the classpath, if a module provides one. */
public final class Audits {
    private Audits() {
    }

    /** The first TrialAudit the ServiceLoader finds. */
    public static Optional<TrialAudit> discover() {
        return ServiceLoader.load(TrialAudit.class).findFirst();
    }
}
