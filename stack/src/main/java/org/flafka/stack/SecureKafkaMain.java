package org.flafka.stack;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link SecureKafka} as its own process for tests outside Java (the Ansible rollout test),
 * with the identities they need, and writes a JSON ready file (mode 0600: it holds the passwords)
 * once the broker accepts clients.
 *
 * <pre>
 * java -cp &lt;stack classpath&gt; org.flafka.stack.SecureKafkaMain --dir D --ready-file F
 *     [--scram-user NAME]... [--principal NAME]... [--client-cert NAME]... [--exit-with-parent]
 * </pre>
 *
 * The ready file: {@code bootstrap} (PLAINTEXT, for the test's own checks), {@code sasl_ssl},
 * {@code ssl}, {@code service_name}, {@code realm}, {@code krb5_conf} (agents need {@code
 * -Djava.security.krb5.conf=} it), {@code truststore} {path, password}, {@code scram} {user:
 * password} (random passwords), {@code keytabs} {principal: keytab path}, {@code keystores} {name:
 * {path, password}}. Passwords are made here, so none is on a command line.
 */
public final class SecureKafkaMain {
  private SecureKafkaMain() {}

  public static void main(String[] args) throws Exception {
    Path dir = null;
    Path readyFile = null;
    boolean exitWithParent = false;
    List<String> scramUsers = new ArrayList<>();
    List<String> principals = new ArrayList<>();
    List<String> clientCerts = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--exit-with-parent")) {
        exitWithParent = true;
        continue;
      }
      if (i + 1 >= args.length) {
        usage(arg + " needs a value");
        return;
      }
      String value = args[++i];
      switch (arg) {
        case "--dir" -> dir = Path.of(value);
        case "--ready-file" -> readyFile = Path.of(value);
        case "--scram-user" -> scramUsers.add(value);
        case "--principal" -> principals.add(value);
        case "--client-cert" -> clientCerts.add(value);
        default -> {
          usage("unknown argument '" + arg + "'");
          return;
        }
      }
    }
    if (dir == null || readyFile == null) {
      usage("--dir and --ready-file are required");
      return;
    }
    List<String> stopArgs =
        new ArrayList<>(List.of("--dir", dir.toString(), "--ready-file", readyFile.toString()));
    if (exitWithParent) {
      stopArgs.add("--exit-with-parent");
    }
    CountDownLatch stopRequest = MainArgs.parse(stopArgs.toArray(String[]::new)).stopRequest();
    try (SecureKafka kafka = SecureKafka.start(dir)) {
      Map<String, Object> ready = new LinkedHashMap<>();
      ready.put("bootstrap", kafka.bootstrapServers());
      ready.put("sasl_ssl", kafka.saslSslBootstrapServers());
      ready.put("ssl", kafka.sslBootstrapServers());
      ready.put("service_name", SecureKafka.SERVICE_NAME);
      ready.put("realm", Kdc.REALM);
      ready.put("krb5_conf", kafka.kdc().krb5Conf().toString());
      ready.put("truststore", store(kafka.ca().trustStore()));
      Map<String, String> scram = new LinkedHashMap<>();
      for (String user : scramUsers) {
        String password = newPassword();
        kafka.addScramUser(user, password);
        scram.put(user, password);
      }
      ready.put("scram", scram);
      Map<String, String> keytabs = new LinkedHashMap<>();
      for (String principal : principals) {
        keytabs.put(principal, kafka.kdc().createPrincipal(principal).toString());
      }
      ready.put("keytabs", keytabs);
      Map<String, Object> keyStores = new LinkedHashMap<>();
      for (String name : clientCerts) {
        keyStores.put(name, store(kafka.ca().issue(name)));
      }
      ready.put("keystores", keyStores);
      writeOwnerOnly(readyFile, new ObjectMapper().writeValueAsString(ready));
      stopRequest.await();
    } catch (Exception e) {
      // the server's own threads would keep a half-started JVM alive; the parent reads this from
      // the log
      System.err.println("SecureKafkaMain: " + e.getMessage());
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }

  private static Map<String, String> store(CertificateAuthority.Store store) {
    return Map.of("path", store.path().toString(), "password", store.password());
  }

  private static String newPassword() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** Written whole, then moved into place, so a reader never sees half a file. */
  private static void writeOwnerOnly(Path file, String content) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    Files.createFile(
        tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(tmp, content + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static void usage(String problem) {
    System.err.println(
        "SecureKafkaMain: "
            + problem
            + "; usage: SecureKafkaMain --dir DIR --ready-file FILE [--scram-user NAME]..."
            + " [--principal NAME]... [--client-cert NAME]... [--exit-with-parent]");
    System.exit(2);
  }
}
