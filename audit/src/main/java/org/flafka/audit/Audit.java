package org.flafka.audit;

/**
 * Audits what landed against what {@code flafka load} sent: {@code AuditResult result =
 * Audit.run(Manifest.read(file), new KafkaTopicSource(bootstrap, topic));}. Nothing here prints or
 * exits; {@link AuditReport} formats a result.
 */
public final class Audit {
  /** Missing ranges kept per device unless asked otherwise. */
  public static final int DEFAULT_MAX_RANGES = 10;

  private Audit() {}

  public static AuditResult run(Manifest manifest, DeliverySource source) throws AuditException {
    return run(manifest, source, DEFAULT_MAX_RANGES);
  }

  /**
   * As {@link #run(Manifest, DeliverySource)}, listing up to {@code maxRanges} missing ranges per
   * device.
   */
  public static AuditResult run(Manifest manifest, DeliverySource source, int maxRanges)
      throws AuditException {
    Tally tally;
    try {
      tally = new Tally(manifest);
    } catch (IllegalArgumentException e) {
      throw new AuditException("manifest " + manifest.source() + ": " + e.getMessage());
    }
    source.readInto(tally);
    return tally.result(source.describe(), maxRanges);
  }
}
