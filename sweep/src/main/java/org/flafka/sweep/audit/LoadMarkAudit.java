package org.flafka.sweep.audit;

import java.nio.file.Path;
import org.flafka.audit.Audit;
import org.flafka.audit.DeliverySource;
import org.flafka.audit.HdfsPathSource;
import org.flafka.audit.KafkaTopicSource;
import org.flafka.audit.Manifest;

/**
 * The sweep's audit: {@code flafka audit} (org.flafka.audit) over what a trial's core wrote to
 * HDFS, or what its edge wrote to Kafka, against the load's manifest. Every body's (device,
 * sequence) mark is counted, and bodies are compared with the exact messages sent when the manifest
 * allows rebuilding them.
 */
public final class LoadMarkAudit implements TrialAudit {
  @Override
  public String name() {
    return "flafka audit";
  }

  @Override
  public AuditCounts audit(Path manifest, Landing landing) throws Exception {
    DeliverySource source =
        landing instanceof Landing.Hdfs hdfs
            ? new HdfsPathSource(null, hdfs.root().toString())
            : new KafkaTopicSource(
                ((Landing.KafkaTopic) landing).bootstrapServers(),
                ((Landing.KafkaTopic) landing).topic());
    org.flafka.audit.AuditResult result = Audit.run(Manifest.read(manifest), source);
    return new AuditCounts(
        result.sent(),
        result.delivered(),
        result.missing(),
        result.duplicates(),
        result.corrupted());
  }
}
