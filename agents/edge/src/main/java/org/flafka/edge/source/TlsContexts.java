package org.flafka.edge.source;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.UnrecoverableKeyException;
import java.util.Collections;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.apache.flume.conf.ConfigurationException;

/**
 * Builds the server TLS context (RFC 5425) from the tls.* keys, with the JDK's TLS provider.
 * Problems with the keystore or truststore are configuration errors that name the key, the file and
 * the fix.
 */
final class TlsContexts {

  private TlsContexts() {}

  static SslContext server(SyslogSourceConfig config) {
    String component = config.component();
    char[] keyPassword = password(config.tlsKeystorePassword());
    KeyStore keystore =
        load(
            component,
            SyslogSourceConfig.TLS_KEYSTORE,
            config.tlsKeystorePasswordSetting(),
            SyslogSourceConfig.TLS_KEYSTORE_TYPE,
            config.tlsKeystore(),
            config.tlsKeystoreType(),
            keyPassword);
    try {
      if (Collections.list(keystore.aliases()).stream()
          .noneMatch(alias -> isKeyEntry(keystore, alias))) {
        throw new ConfigurationException(
            component
                + ": "
                + SyslogSourceConfig.TLS_KEYSTORE
                + " '"
                + config.tlsKeystore()
                + "' holds no private key. Fix: point it at a keystore with the server's key "
                + "and certificate chain (not a truststore).");
      }
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(keystore, keyPassword);
      SslContextBuilder builder =
          SslContextBuilder.forServer(keys)
              .sslProvider(SslProvider.JDK)
              .protocols(config.tlsProtocols());
      if (config.tlsClientAuth() != SyslogSourceConfig.ClientAuth.NONE) {
        KeyStore truststore =
            load(
                component,
                SyslogSourceConfig.TLS_TRUSTSTORE,
                config.tlsTruststorePasswordSetting(),
                SyslogSourceConfig.TLS_TRUSTSTORE_TYPE,
                config.tlsTruststore(),
                config.tlsTruststoreType(),
                password(config.tlsTruststorePassword()));
        TrustManagerFactory trust =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(truststore);
        builder
            .trustManager(trust)
            .clientAuth(
                config.tlsClientAuth() == SyslogSourceConfig.ClientAuth.REQUIRED
                    ? ClientAuth.REQUIRE
                    : ClientAuth.OPTIONAL);
      }
      return builder.build();
    } catch (UnrecoverableKeyException e) {
      throw new ConfigurationException(
          component
              + ": cannot read the private key in "
              + SyslogSourceConfig.TLS_KEYSTORE
              + " '"
              + config.tlsKeystore()
              + "': "
              + e.getMessage()
              + ". Fix: the key must have the keystore's "
              + "password, "
              + config.tlsKeystorePasswordSetting()
              + ".",
          e);
    } catch (GeneralSecurityException | SSLException e) {
      throw new ConfigurationException(
          component
              + ": cannot set up TLS: "
              + e.getMessage()
              + ". Fix: check the "
              + "tls.* keys.",
          e);
    }
  }

  private static boolean isKeyEntry(KeyStore keystore, String alias) {
    try {
      return keystore.isKeyEntry(alias);
    } catch (KeyStoreException e) {
      return false;
    }
  }

  private static char[] password(String password) {
    return password == null ? new char[0] : password.toCharArray();
  }

  private static KeyStore load(
      String component,
      String fileKey,
      String passwordSetting,
      String typeKey,
      Path file,
      String type,
      char[] password) {
    KeyStore store;
    try {
      store = KeyStore.getInstance(type);
    } catch (KeyStoreException e) {
      throw new ConfigurationException(
          component
              + ": invalid value '"
              + type
              + "' for key '"
              + typeKey
              + "': not a keystore type this JVM knows. Fix: set "
              + typeKey
              + " to PKCS12 or JKS.",
          e);
    }
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password);
      return store;
    } catch (NoSuchFileException e) {
      throw new ConfigurationException(
          component
              + ": "
              + fileKey
              + " '"
              + file
              + "' does not exist. Fix: set "
              + fileKey
              + " to the path of the "
              + type
              + " file.",
          e);
    } catch (IOException e) {
      String reason =
          e.getCause() instanceof UnrecoverableKeyException
              ? "wrong password. Fix: set " + passwordSetting + " to the file's password"
              : e.getMessage()
                  + ". Fix: check that it is a "
                  + type
                  + " file ("
                  + typeKey
                  + ") and that "
                  + passwordSetting
                  + " is its password";
      throw new ConfigurationException(
          component + ": cannot read " + fileKey + " '" + file + "': " + reason + ".", e);
    } catch (GeneralSecurityException e) {
      throw new ConfigurationException(
          component + ": cannot read " + fileKey + " '" + file + "': " + e.getMessage() + ".", e);
    }
  }
}
