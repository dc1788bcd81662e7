package org.flafka.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.flafka.stack.Directories;
import org.flafka.stack.SecureHdfs;
import org.flafka.stack.SecureKafka;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One secure stack for the end-to-end classes of this module that can share it: a {@link
 * SecureKafka} (TLS and SASL, with the JVM's KDC) and, started on first use of {@link #hdfs()}, a
 * {@link SecureHdfs}. A class asks for it with
 * {@code @ExtendWith(SharedSecureStack.Extension.class)} and a {@code SharedSecureStack} parameter;
 * the first class to ask starts it and it stops when the launch's tests are over. The module's
 * surefire runs two JVMs that each take one class at a time, as a launch of its own ({@code
 * forkCount} 2, {@code cli/pom.xml}), so there each class starts and stops its own; when classes
 * run in one launch (an IDE, {@code -DforkCount=1}) they share one, which saves seconds per class.
 * The classes run one after the other in a JVM, each on topics, users, principals and HDFS
 * directories of its own.
 *
 * <p>The broker may run beside anything. The HDFS may not: Hadoop's Kerberos settings are JVM-wide,
 * so while it runs every Hadoop client in the JVM is a Kerberos client (a plain {@code Hdfs} or
 * {@code flafka audit} of one fails), and any other {@link SecureHdfs} closing (a class's own, or
 * {@code flafka bench|sweep --secure}'s) puts the JVM back on simple authentication under it. The
 * classes that use it therefore run after every other class: they carry {@code @Order(}{@link
 * #LAST}{@code )}, which {@code junit.jupiter.testclass.order.default} ({@code
 * junit-platform.properties}) honours within a launch; {@link #hdfs()} fails with one line if that
 * did not hold. (A launch of one class, as under surefire, has no class after it.)
 */
public final class SharedSecureStack implements AutoCloseable {

  /**
   * The {@code @Order} of the classes that use {@link #hdfs()}: after every class without one
   * ({@code Order.DEFAULT}).
   */
  public static final int LAST = Integer.MAX_VALUE;

  private final Path dir;
  private final SecureKafka kafka;
  private SecureHdfs hdfs;

  private SharedSecureStack(Path dir, SecureKafka kafka) {
    this.dir = dir;
    this.kafka = kafka;
  }

  private static SharedSecureStack start() {
    Path dir;
    try {
      dir = Files.createTempDirectory("flafka-shared-secure-stack");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new SharedSecureStack(dir, SecureKafka.start(dir.resolve("kafka")));
  }

  /**
   * The broker, with its SASL_SSL and SSL listeners, its CA ({@link SecureKafka#ca()}) and the
   * JVM's KDC ({@link SecureKafka#kdc()}).
   */
  public SecureKafka kafka() {
    return kafka;
  }

  /**
   * The Kerberized HDFS, its web servers' certificates from {@link #kafka()}'s CA; started by the
   * first call. Only for classes ordered {@link #LAST}.
   */
  public synchronized SecureHdfs hdfs() {
    if (hdfs == null) {
      hdfs = SecureHdfs.start(dir.resolve("hdfs"), kafka.ca());
    } else if (!UserGroupInformation.isSecurityEnabled()) {
      throw new IllegalStateException(
          "this JVM's Hadoop went back to simple authentication while the shared secure HDFS ran:"
              + " a class that starts or stops an HDFS of its own ran after a class using it;"
              + " give every class that uses it @Order(SharedSecureStack.LAST)");
    }
    return hdfs;
  }

  /** Stops HDFS (putting the JVM back on simple authentication) and the broker. */
  @Override
  public synchronized void close() {
    try {
      if (hdfs != null) {
        hdfs.close();
      }
    } finally {
      kafka.close();
      Directories.deleteRecursively(dir);
    }
  }

  /**
   * Hands a test class the JVM's {@link SharedSecureStack}, as a parameter of a {@code @BeforeAll}
   * or test method.
   */
  public static final class Extension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(SharedSecureStack.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == SharedSecureStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      // The root store closes what it holds (AutoCloseable) when the whole run is over
      return context
          .getRoot()
          .getStore(NAMESPACE)
          .getOrComputeIfAbsent(SharedSecureStack.class, key -> start(), SharedSecureStack.class);
    }
  }
}
