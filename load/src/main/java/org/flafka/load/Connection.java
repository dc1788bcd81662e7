package org.flafka.load;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * One connection (or UDP socket) to the receiver: it takes whole framed messages, many per write on
 * streams.
 */
interface Connection extends Closeable {
  int CONNECT_TIMEOUT_MILLIS = 5_000;
  int SEND_BUFFER_BYTES = 1 << 20;

  /**
   * Sends {@code length} bytes: on UDP exactly one message (one datagram), on streams any number of
   * frames.
   */
  void write(byte[] bytes, int offset, int length) throws IOException;

  /**
   * Opens a connection of {@code protocol} to {@code target}; throws {@link ConnectFailedException}
   * when the target cannot be reached or (TLS) not trusted.
   */
  static Connection open(Protocol protocol, InetSocketAddress target, TlsSettings tls)
      throws ConnectFailedException {
    try {
      switch (protocol) {
        case UDP:
          return new Udp(target);
        case TCP:
          return new Tcp(target);
        default:
          return new Tls(target, tls);
      }
    } catch (ConnectException | NoRouteToHostException | SocketTimeoutException e) {
      throw new ConnectFailedException(
          "cannot connect to "
              + LoadSettings.describe(target)
              + " over "
              + protocol.flagName()
              + ": "
              + lowerFirst(e.getMessage())
              + "; is the receiver listening there?",
          e);
    } catch (SSLException e) {
      throw new ConnectFailedException(
          "TLS handshake with "
              + LoadSettings.describe(target)
              + " failed: "
              + e.getMessage()
              + "; give --tls-truststore with the receiver's CA (or --tls-insecure to test)",
          e);
    } catch (IOException | GeneralSecurityException e) {
      throw new ConnectFailedException(
          "cannot connect to "
              + LoadSettings.describe(target)
              + " over "
              + protocol.flagName()
              + ": "
              + e,
          e);
    }
  }

  private static String lowerFirst(String message) {
    if (message == null || message.isEmpty()) {
      return "failed";
    }
    return Character.toLowerCase(message.charAt(0)) + message.substring(1);
  }

  /** A connected UDP socket: each write is one datagram. */
  final class Udp implements Connection {
    private final DatagramChannel channel;

    Udp(InetSocketAddress target) throws IOException {
      channel = DatagramChannel.open();
      channel.setOption(StandardSocketOptions.SO_SNDBUF, SEND_BUFFER_BYTES);
      channel.connect(target);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      channel.write(ByteBuffer.wrap(bytes, offset, length));
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /** A TCP stream; Nagle off, since we only ever write large batches. */
  final class Tcp implements Connection {
    private final SocketChannel channel;

    Tcp(InetSocketAddress target) throws IOException {
      SocketChannel opened = SocketChannel.open();
      try {
        opened.setOption(StandardSocketOptions.TCP_NODELAY, true);
        opened.setOption(StandardSocketOptions.SO_SNDBUF, SEND_BUFFER_BYTES);
        opened.socket().connect(target, CONNECT_TIMEOUT_MILLIS);
      } catch (IOException e) {
        opened.close();
        throw e;
      }
      channel = opened;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /** TLS over TCP, handshaken before the load starts so that trust problems show at once. */
  final class Tls implements Connection {
    private final SSLSocket socket;
    private final OutputStream out;

    Tls(InetSocketAddress target, TlsSettings settings)
        throws IOException, GeneralSecurityException {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(
          null,
          settings.insecure()
              ? new TrustManager[] {new TrustAll()}
              : trustManagers(settings.truststore(), settings.truststorePassword()),
          null);
      Socket plain = new Socket();
      try {
        plain.setTcpNoDelay(true);
        plain.setSendBufferSize(SEND_BUFFER_BYTES);
        plain.connect(target, CONNECT_TIMEOUT_MILLIS);
        socket =
            (SSLSocket)
                context
                    .getSocketFactory()
                    .createSocket(plain, target.getHostString(), target.getPort(), true);
        if (!settings.insecure()) {
          // Check that the certificate names the host we asked for, as HTTPS clients do.
          SSLParameters parameters = socket.getSSLParameters();
          parameters.setEndpointIdentificationAlgorithm("HTTPS");
          socket.setSSLParameters(parameters);
        }
        socket.startHandshake();
      } catch (IOException e) {
        plain.close();
        throw e;
      }
      out = socket.getOutputStream();
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      out.write(bytes, offset, length);
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }

    private static TrustManager[] trustManagers(Path truststore, char[] password)
        throws IOException, GeneralSecurityException {
      if (truststore == null) {
        return null; // the JDK's default trust store
      }
      // PKCS12 by default; the JDK's keystore compatibility mode reads JKS files with it too.
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      try (InputStream in = Files.newInputStream(truststore)) {
        store.load(in, password);
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory.getTrustManagers();
    }
  }

  /** Accepts any certificate: only behind the explicit --tls-insecure, which prints a warning. */
  final class TrustAll implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
