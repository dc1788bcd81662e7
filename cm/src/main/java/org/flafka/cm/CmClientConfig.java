package org.flafka.cm;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * Settings of {@link CmClient}, in one place: every key with its default, rule and doc (see {@link
 * #KEYS}). Build one with {@link #from(Map, Map)} from string settings (CLI flags, a YAML file) and
 * the process environment; every error names the key, the value and the rule.
 *
 * <p>Keys map to CLI flags one to one: {@code cm.password.file} is {@code --cm-password-file}
 * ({@link #flag}). Passwords are read from an environment variable or a file, never from a flag,
 * and never appear in {@link #toString()} or in any message.
 */
public final class CmClientConfig {

  /** One setting: its key, its default (null when it has none), and what it means. */
  public record Key(String name, String defaultValue, String doc) {}

  public static final String URL = "cm.url";
  public static final String USER = "cm.user";
  public static final String PASSWORD_ENV = "cm.password.env";
  public static final String PASSWORD_FILE = "cm.password.file";
  public static final String TRUSTSTORE_PATH = "cm.truststore.path";
  public static final String TRUSTSTORE_TYPE = "cm.truststore.type";
  public static final String TRUSTSTORE_PASSWORD_ENV = "cm.truststore.password.env";
  public static final String API_VERSION = "cm.api.version";
  public static final String CONNECT_TIMEOUT_MS = "cm.connect.timeout.ms";
  public static final String REQUEST_TIMEOUT_MS = "cm.request.timeout.ms";
  public static final String COMMAND_POLL_INTERVAL_MS = "cm.command.poll.interval.ms";
  public static final String COMMAND_TIMEOUT_MS = "cm.command.timeout.ms";

  public static final String DEFAULT_PASSWORD_ENV = "FLAFKA_CM_PASSWORD";
  public static final String DEFAULT_TRUSTSTORE_PASSWORD_ENV = "FLAFKA_CM_TRUSTSTORE_PASSWORD";

  /** Every setting, in the order the docs list them. */
  public static final List<Key> KEYS =
      List.of(
          new Key(
              URL,
              null,
              "Cloudera Manager server root, e.g. https://cm.example.com:7183 (CM listens on 7180 "
                  + "for HTTP, 7183 for HTTPS). A path prefix is kept (for a gateway); do not add /api/vN."),
          new Key(USER, "admin", "CM user for HTTP basic auth."),
          new Key(
              PASSWORD_ENV, DEFAULT_PASSWORD_ENV, "Environment variable holding the CM password."),
          new Key(
              PASSWORD_FILE,
              null,
              "File whose first line is the CM password; wins over the variable."),
          new Key(
              TRUSTSTORE_PATH,
              null,
              "Trust store (JKS or PKCS12) with the CA of CM's TLS certificate; "
                  + "the JVM's default trust store when unset. There is no option to trust every certificate."),
          new Key(
              TRUSTSTORE_TYPE,
              null,
              "PKCS12 or JKS; guessed from the file name (.jks = JKS) when unset."),
          new Key(
              TRUSTSTORE_PASSWORD_ENV,
              DEFAULT_TRUSTSTORE_PASSWORD_ENV,
              "Environment variable holding the trust store password (unset = open without a password)."),
          new Key(
              API_VERSION,
              null,
              "Pin the API version ("
                  + CmClient.MIN_API_VERSION
                  + ".."
                  + CmClient.MAX_API_VERSION
                  + "); when unset, the lower of the server's highest and "
                  + CmClient.MAX_API_VERSION
                  + "."),
          new Key(CONNECT_TIMEOUT_MS, "10000", "TCP connect timeout, ms."),
          new Key(REQUEST_TIMEOUT_MS, "60000", "Timeout for one HTTP request, ms."),
          new Key(
              COMMAND_POLL_INTERVAL_MS, "5000", "How often a running CM command is polled, ms."),
          new Key(
              COMMAND_TIMEOUT_MS,
              "600000",
              "How long to wait for a CM command (e.g. a restart), ms."));

  private static final Set<String> KEY_NAMES =
      KEYS.stream().map(Key::name).collect(java.util.stream.Collectors.toUnmodifiableSet());

  private final URI url;
  private final String user;
  private final char[] password;
  private final String passwordSource;
  private final Path truststorePath;
  private final String truststoreType;
  private final char[] truststorePassword;
  private final OptionalInt apiVersion;
  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final Duration commandPollInterval;
  private final Duration commandTimeout;

  private CmClientConfig(Map<String, String> values, Map<String, String> environment) {
    this.url = parseUrl(values.get(URL));
    this.user = requireNonBlank(values, USER);
    String passwordFile = values.get(PASSWORD_FILE);
    String passwordEnv = requireNonBlank(values, PASSWORD_ENV);
    if (passwordFile != null && !passwordFile.isBlank()) {
      this.password = readPasswordFile(passwordFile);
      this.passwordSource = flag(PASSWORD_FILE) + " " + passwordFile;
    } else {
      String fromEnv = environment.get(passwordEnv);
      if (fromEnv == null || fromEnv.isEmpty()) {
        throw invalid(
            "no Cloudera Manager password: set the environment variable "
                + passwordEnv
                + " or give "
                + flag(PASSWORD_FILE));
      }
      this.password = fromEnv.toCharArray();
      this.passwordSource = passwordEnv;
    }
    String store = values.get(TRUSTSTORE_PATH);
    this.truststorePath = store == null || store.isBlank() ? null : Path.of(store);
    this.truststoreType = truststoreType(values.get(TRUSTSTORE_TYPE), truststorePath);
    String storePassword = environment.get(requireNonBlank(values, TRUSTSTORE_PASSWORD_ENV));
    this.truststorePassword =
        storePassword == null || storePassword.isEmpty() ? null : storePassword.toCharArray();
    String pinned = values.get(API_VERSION);
    this.apiVersion =
        pinned == null || pinned.isBlank()
            ? OptionalInt.empty()
            : OptionalInt.of(parseApiVersion(pinned));
    this.connectTimeout = positiveMillis(values, CONNECT_TIMEOUT_MS);
    this.requestTimeout = positiveMillis(values, REQUEST_TIMEOUT_MS);
    this.commandPollInterval = positiveMillis(values, COMMAND_POLL_INTERVAL_MS);
    this.commandTimeout = positiveMillis(values, COMMAND_TIMEOUT_MS);
  }

  /**
   * Builds the settings from {@code settings} (keys of {@link #KEYS}; missing keys take their
   * default) and reads passwords from {@code environment} (pass {@code System.getenv()}) or the
   * password file.
   *
   * @throws CmException ({@link CmException.Reason#INVALID_CONFIG}) naming the key, value and rule
   */
  public static CmClientConfig from(Map<String, String> settings, Map<String, String> environment) {
    Set<String> unknown = new TreeSet<>(settings.keySet());
    unknown.removeAll(KEY_NAMES);
    if (!unknown.isEmpty()) {
      throw invalid(
          "unknown Cloudera Manager setting(s) " + unknown + ": known are " + sortedKeyNames());
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (Key key : KEYS) {
      String value = settings.get(key.name());
      values.put(key.name(), value != null ? value.trim() : key.defaultValue());
    }
    return new CmClientConfig(values, environment);
  }

  /** The CLI flag for a key: {@code cm.password.file} is {@code --cm-password-file}. */
  public static String flag(String key) {
    return "--" + key.replace('.', '-');
  }

  private static URI parseUrl(String value) {
    if (value == null || value.isBlank()) {
      throw invalid(
          flag(URL)
              + " is required: the Cloudera Manager server, e.g. https://cm.example.com:7183");
    }
    URI uri;
    try {
      uri = new URI(value);
    } catch (URISyntaxException e) {
      throw invalid(
          flag(URL)
              + " '"
              + value
              + "' is not a URL ("
              + e.getReason()
              + "): give e.g. https://cm.example.com:7183");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw invalid(flag(URL) + " '" + value + "' must start with http:// or https://");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw invalid(flag(URL) + " '" + value + "' has no host name");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
      throw invalid(
          flag(URL)
              + " '"
              + value
              + "' must not carry a query, fragment or user: give the user with "
              + flag(USER));
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
    if (path.matches(".*/api(/v\\d+)?")) {
      throw invalid(
          flag(URL)
              + " '"
              + value
              + "' ends in /api...: give the server root (flafka adds /api/vN; "
              + "pin a version with "
              + flag(API_VERSION)
              + ")");
    }
    return URI.create(scheme + "://" + uri.getRawAuthority() + path);
  }

  private static String requireNonBlank(Map<String, String> values, String key) {
    String value = values.get(key);
    if (value == null || value.isBlank()) {
      throw invalid(flag(key) + " must not be empty");
    }
    return value;
  }

  private static char[] readPasswordFile(String file) {
    try {
      String content = Files.readString(Path.of(file), StandardCharsets.UTF_8);
      String firstLine = content.lines().findFirst().orElse("");
      if (firstLine.isEmpty()) {
        throw invalid(
            flag(PASSWORD_FILE) + " " + file + " is empty: put the password on its first line");
      }
      return firstLine.toCharArray();
    } catch (NoSuchFileException e) {
      throw invalid(flag(PASSWORD_FILE) + " " + file + " does not exist");
    } catch (IOException e) {
      throw invalid(flag(PASSWORD_FILE) + " " + file + " cannot be read: " + e.getMessage());
    }
  }

  private static String truststoreType(String type, Path path) {
    if (type != null && !type.isBlank()) {
      String upper = type.toUpperCase(Locale.ROOT);
      if (!upper.equals("PKCS12") && !upper.equals("JKS")) {
        throw invalid(flag(TRUSTSTORE_TYPE) + " '" + type + "' must be PKCS12 or JKS");
      }
      return upper;
    }
    if (path != null && path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jks")) {
      return "JKS";
    }
    return "PKCS12";
  }

  private static int parseApiVersion(String value) {
    String digits = value.startsWith("v") || value.startsWith("V") ? value.substring(1) : value;
    int version;
    try {
      version = Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw invalid(
          flag(API_VERSION) + " '" + value + "' is not a version number such as 32 or v32");
    }
    if (version < CmClient.MIN_API_VERSION || version > CmClient.MAX_API_VERSION) {
      throw invalid(
          flag(API_VERSION)
              + " '"
              + value
              + "' must be between "
              + CmClient.MIN_API_VERSION
              + " and "
              + CmClient.MAX_API_VERSION
              + " (the versions this client is written for)");
    }
    return version;
  }

  private static Duration positiveMillis(Map<String, String> values, String key) {
    String value = values.get(key);
    long millis;
    try {
      millis = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw invalid(flag(key) + " '" + value + "' is not a whole number of milliseconds");
    }
    if (millis <= 0) {
      throw invalid(flag(key) + " '" + value + "' must be greater than 0");
    }
    return Duration.ofMillis(millis);
  }

  private static String sortedKeyNames() {
    return String.join(", ", new TreeSet<>(KEY_NAMES));
  }

  private static CmException invalid(String message) {
    return new CmException(CmException.Reason.INVALID_CONFIG, message);
  }

  /** Server root without a trailing slash, e.g. {@code https://cm:7183}. */
  public URI url() {
    return url;
  }

  public String user() {
    return user;
  }

  /** The password; callers must not log it. */
  char[] password() {
    return password.clone();
  }

  /** Where the password came from, for messages: the variable's name or the file flag and path. */
  public String passwordSource() {
    return passwordSource;
  }

  public Optional<Path> truststorePath() {
    return Optional.ofNullable(truststorePath);
  }

  public String truststoreType() {
    return truststoreType;
  }

  char[] truststorePassword() {
    return truststorePassword == null ? null : truststorePassword.clone();
  }

  /** The pinned API version, if any. */
  public OptionalInt apiVersion() {
    return apiVersion;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration requestTimeout() {
    return requestTimeout;
  }

  public Duration commandPollInterval() {
    return commandPollInterval;
  }

  public Duration commandTimeout() {
    return commandTimeout;
  }

  @Override
  public String toString() {
    return "CmClientConfig{url="
        + url
        + ", user="
        + user
        + ", password=[hidden, from "
        + passwordSource
        + "]"
        + ", truststore="
        + (truststorePath == null ? "JVM default" : truststorePath + " (" + truststoreType + ")")
        + ", apiVersion="
        + (apiVersion.isPresent() ? "v" + apiVersion.getAsInt() : "negotiated")
        + ", connectTimeout="
        + connectTimeout
        + ", requestTimeout="
        + requestTimeout
        + ", commandPollInterval="
        + commandPollInterval
        + ", commandTimeout="
        + commandTimeout
        + "}";
  }
}
