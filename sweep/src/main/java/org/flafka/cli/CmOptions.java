package org.flafka.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.flafka.cm.CmClient;
import org.flafka.cm.CmClientConfig;
import org.flafka.cm.CmException;
import picocli.CommandLine.Option;

/**
 * The Cloudera Manager connection flags ({@code --cm-url}, {@code --cm-user}, {@code --cm-password-file}); the
 * password otherwise comes from FLAFKA_CM_PASSWORD, never from a flag. Errors become one-line user errors.
 */
final class CmOptions {
    @Option(names = "--cm-url", required = true, paramLabel = "URL",
            description = "Cloudera Manager (or CM emulator) root, e.g. https://cm.example.com:7183.")
    String url;

    @Option(names = "--cm-user", paramLabel = "USER", defaultValue = "admin", description = "CM user (default: ${DEFAULT-VALUE}).")
    String user;

    @Option(names = "--cm-password-file", paramLabel = "FILE",
            description = "File whose first line is the CM password (default: the FLAFKA_CM_PASSWORD variable).")
    Path passwordFile;

    @Option(names = "--cm-truststore-path", paramLabel = "FILE", description = "Trust store with the CA of CM's certificate.")
    Path truststore;

    /** Connects (checking URL, credentials and TLS); a CmException becomes a UserException with its message. */
    CmClient connect(Map<String, String> environment) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(CmClientConfig.URL, url);
        settings.put(CmClientConfig.USER, user);
        if (passwordFile != null) {
            settings.put(CmClientConfig.PASSWORD_FILE, passwordFile.toString());
        }
        if (truststore != null) {
            settings.put(CmClientConfig.TRUSTSTORE_PATH, truststore.toString());
        }
        try {
            return CmClient.connect(CmClientConfig.from(settings, environment));
        } catch (CmException e) {
            throw asUserError(e);
        }
    }

    static UserException asUserError(CmException e) {
        return e.reason() == CmException.Reason.INVALID_CONFIG ? UserException.invalidInput(e.getMessage())
                : UserException.unexpectedState(e.getMessage());
    }
}
