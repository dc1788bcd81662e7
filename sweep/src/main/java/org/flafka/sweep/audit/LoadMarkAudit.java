package org.flafka.sweep.audit;

import java.lang.reflect.UndeclaredThrowableException;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.flafka.audit.Audit;
import org.flafka.audit.AuditResult;
import org.flafka.audit.DeliverySource;
import org.flafka.audit.HdfsPathSource;
import org.flafka.audit.KafkaTopicSource;
import org.flafka.audit.Manifest;

/**
 * The sweep's audit: {@code flafka audit} (org.flafka.audit) over what a trial's core wrote to
 * HDFS, or what its edge wrote to Kafka, against the load's manifest. Every body's (device,
 * sequence) mark is counted, and bodies are compared with the exact messages sent when the manifest
 * allows rebuilding them. On a secure cluster it reads as {@code flafka audit} does with {@code
 * --kafka-config} and {@code --hdfs-config}/{@code --hdfs-principal}/{@code --hdfs-keytab}: the
 * Kafka client properties, the Hadoop client configuration and the Kerberos login it is given.
 */
public final class LoadMarkAudit implements TrialAudit {
  private final Map<String, String> kafkaClient;
  private final Configuration hadoop;
  private final UserGroupInformation hdfsLogin;

  /** For a cluster without security: PLAINTEXT Kafka, HDFS with the class path's configuration. */
  public LoadMarkAudit() {
    this(Map.of(), null, null);
  }

  /**
   * @param kafkaClient Kafka client properties (security.protocol, sasl.*, ssl.*), empty for
   *     PLAINTEXT
   * @param hadoop the Hadoop client configuration, or null for Hadoop's defaults and class path
   * @param hdfsLogin the Kerberos login HDFS is read as, or null for none
   */
  public LoadMarkAudit(
      Map<String, String> kafkaClient, Configuration hadoop, UserGroupInformation hdfsLogin) {
    this.kafkaClient = Map.copyOf(kafkaClient);
    this.hadoop = hadoop;
    this.hdfsLogin = hdfsLogin;
  }

  @Override
  public String name() {
    return "flafka audit";
  }

  @Override
  public AuditCounts audit(Path manifest, Landing landing) throws Exception {
    DeliverySource source;
    if (landing instanceof Landing.Hdfs hdfs) {
      HdfsPathSource files = new HdfsPathSource(null, hdfs.root().toString());
      source = hadoop == null ? files : files.withConfiguration(hadoop);
    } else {
      Landing.KafkaTopic topic = (Landing.KafkaTopic) landing;
      source =
          new KafkaTopicSource(topic.bootstrapServers(), topic.topic())
              .withConsumerProperties(kafkaClient);
    }
    Manifest sent = Manifest.read(manifest);
    AuditResult result;
    if (hdfsLogin == null || !(landing instanceof Landing.Hdfs)) {
      result = Audit.run(sent, source);
    } else {
      try {
        result =
            hdfsLogin.doAs((PrivilegedExceptionAction<AuditResult>) () -> Audit.run(sent, source));
      } catch (UndeclaredThrowableException e) {
        // doAs passes on only IOException, InterruptedException and unchecked ones
        throw e.getCause() instanceof Exception cause ? cause : e;
      }
    }
    return new AuditCounts(
        result.sent(),
        result.delivered(),
        result.missing(),
        result.duplicates(),
        result.corrupted());
  }
}
