package org.flafka.load;

/**
 * The exact bytes a load run sent as message {@code sequence} of device {@code device}, rebuilt
 * from what the manifest records (start time, mix, sizes, seed, connections, devices), so an audit
 * can compare what landed with what was sent, byte for byte, without keeping a copy.
 *
 * <p>It follows {@link LoadGenerator}'s order: device d sends on connection c = d mod C as the k-th
 * (k = d div C) of that connection's devices in turn, so its message n is the connection's event m
 * = (n - 1) * devicesOn(c) + k, written from schedule slot m + c * {@value #CONNECTION_SLOT_STRIDE}
 * of the same {@link Payloads}.
 */
public final class SentMessages {
  /**
   * Each connection starts at its own place in the schedule ({@code LoadGenerator}'s slot offset).
   */
  static final int CONNECTION_SLOT_STRIDE = 7919;

  private final Payloads payloads;
  private final int connections;
  private final int devices;

  private SentMessages(Payloads payloads, int connections, int devices) {
    this.payloads = payloads;
    this.connections = connections;
    this.devices = devices;
  }

  /**
   * Prepares the messages of a run started at {@code startedMillis} (the time stamped into every
   * header).
   *
   * @throws IllegalArgumentException if the values could not have come from a valid run
   */
  public static SentMessages of(
      FormatMix mix, SizeSpec sizes, long seed, long startedMillis, int connections, int devices) {
    if (connections < 1 || devices < connections) {
      throw new IllegalArgumentException(
          "connections "
              + connections
              + " and devices "
              + devices
              + " must satisfy 1 <= connections <= devices");
    }
    return new SentMessages(
        Payloads.prepare(mix, sizes, seed, startedMillis), connections, devices);
  }

  /** The largest message: a buffer this long holds any of them. */
  public int maxSize() {
    return payloads.maxSize();
  }

  /** Writes the message into {@code target} from offset 0 and returns its length. */
  public int write(int device, long sequence, byte[] target) {
    int slot = slot(device, sequence);
    payloads.write(slot, target, 0, device, sequence);
    return payloads.sizeOf(slot);
  }

  /** The length of the message. */
  public int sizeOf(int device, long sequence) {
    return payloads.sizeOf(slot(device, sequence));
  }

  private int slot(int device, long sequence) {
    if (device < 0 || device >= devices || sequence < 1) {
      throw new IllegalArgumentException(
          "no message "
              + sequence
              + " of device "
              + device
              + " in a run with "
              + devices
              + " devices");
    }
    int connection = device % connections;
    int devicesOn = (devices - connection + connections - 1) / connections;
    long event = (sequence - 1) * devicesOn + device / connections;
    // Payloads reduces the slot modulo its schedule length, a power of two, so int overflow is
    // harmless.
    return (int) event + connection * CONNECTION_SLOT_STRIDE;
  }
}
