package org.flafka.load;

/** How the generator talks to the syslog receiver. */
public enum Protocol {
    UDP("udp"),
    TCP("tcp"),
    TLS("tls");

    /** The largest UDP payload over IPv4: 65,535 - 8 (UDP header) - 20 (IP header). */
    public static final int MAX_UDP_PAYLOAD = 65_507;

    private final String flagName;

    Protocol(String flagName) {
        this.flagName = flagName;
    }

    public String flagName() {
        return flagName;
    }

    /** The protocol called {@code name} on the command line, or null. */
    public static Protocol byFlagName(String name) {
        for (Protocol protocol : values()) {
            if (protocol.flagName.equals(name)) {
                return protocol;
            }
        }
        return null;
    }
}
