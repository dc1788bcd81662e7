package org.flafka.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands every test class of this module one {@link CoreStack}, started on first use and closed when
 * the test run ends: a broker and a MiniDFSCluster take tens of seconds to start on a busy machine,
 * and the classes run one after the other, each on topics and HDFS roots of its own.
 */
final class CoreStackExtension implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(CoreStack.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == CoreStack.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    // The root store closes what it holds (AutoCloseable) when the whole run is over
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            CoreStack.class,
            key -> {
              try {
                return CoreStack.start(Files.createTempDirectory("flafka-core-stack"));
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            },
            CoreStack.class);
  }
}
