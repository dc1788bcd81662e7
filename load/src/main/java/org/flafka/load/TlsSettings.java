package org.flafka.load;

import java.nio.file.Path;

/**
 * How a TLS connection decides to trust the receiver: the certificates in {@code truststore} (or
 * the JDK's own when null), with the host name checked; or, only when {@code insecure} was asked
 * for explicitly, anything.
 */
public record TlsSettings(Path truststore, char[] truststorePassword, boolean insecure) {
  /** The JDK's default trust store, host name checked. */
  public static final TlsSettings DEFAULT = new TlsSettings(null, null, false);
}
