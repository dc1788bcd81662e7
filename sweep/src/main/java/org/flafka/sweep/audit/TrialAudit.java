package org.flafka.sweep.audit;

import java.nio.file.Path;

/**
 * The seam between a sweep trial and the loss audit. After the load stopped, the pipeline drained
 * and the agents stopped, the trial calls {@link #audit} with the load generator's manifest (what
 * each device sent: LoadResult.writeManifest) and where the events landed, and records the result
 * beside the trial's rates. {@link LoadMarkAudit} runs {@code flafka audit} (org.flafka.audit);
 * {@link Audits#discover} prefers an implementation registered in {@code
 * META-INF/services/org.flafka.sweep.audit.TrialAudit}, for targets whose events land where that
 * one cannot read. Trials also report the counted delivery (load sent vs. HDFS sinks drained).
 */
public interface TrialAudit {
  /** A short name for reports, e.g. {@code flafka audit}. */
  String name();

  /**
   * Compares what landed with the manifest. Throws (any exception) if it cannot read either; the
   * trial then records the failure as the audit's result, not as a failed trial.
   */
  AuditCounts audit(Path manifest, Landing landing) throws Exception;
}
