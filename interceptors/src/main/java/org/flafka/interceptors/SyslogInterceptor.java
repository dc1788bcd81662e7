package org.flafka.interceptors;

import static org.flafka.contract.Headers.APP;
import static org.flafka.contract.Headers.FACILITY;
import static org.flafka.contract.Headers.FORMAT;
import static org.flafka.contract.Headers.HOST;
import static org.flafka.contract.Headers.MSGID;
import static org.flafka.contract.Headers.PARSE;
import static org.flafka.contract.Headers.PEER;
import static org.flafka.contract.Headers.PROCID;
import static org.flafka.contract.Headers.RECEIVED;
import static org.flafka.contract.Headers.SEVERITY;
import static org.flafka.contract.Headers.SITE;
import static org.flafka.contract.Headers.TIMESTAMP;
import static org.flafka.contract.Headers.TIMESTAMP_REJECTED;
import static org.flafka.contract.Headers.TIMESTAMP_SOURCE;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.flume.Context;
import org.apache.flume.Event;
import org.apache.flume.interceptor.Interceptor;
import org.flafka.syslog.ParseResult;
import org.flafka.syslog.ParseStatus;
import org.flafka.syslog.SyslogFacts;
import org.flafka.syslog.SyslogFormat;
import org.flafka.syslog.SyslogParser;
import org.flafka.syslog.SyslogParserOptions;
import org.flafka.syslog.TimestampSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parses each event's body with the lenient syslog parser ({@link SyslogParser}) and sets the
 * headers of the edge contract (docs/design.md, "The contract between edge and core"):
 *
 * <ul>
 *   <li>{@code timestamp}: event time, epoch ms UTC; the receive time when the message has no
 *       usable time, or one outside the parser's plausibility window ({@code
 *       timestamp.max.past.ms}, {@code timestamp.max.future.ms} around the receive time). {@code
 *       timestamp_source} says which ({@code message} or {@code received}); a rejected implausible
 *       time is kept in {@code timestamp_rejected} (epoch ms).
 *   <li>{@code host}: the hostname in the message, else the {@code peer} header (the sender's
 *       address), else {@value HostNames#UNKNOWN_HOST}; made safe for an HDFS path component (see
 *       {@link HostNames}).
 *   <li>{@code facility}, {@code severity} (numbers), {@code app}, {@code procid}, {@code msgid}:
 *       when the message has them.
 *   <li>{@code format} ({@code rfc5424}, {@code rfc3164}, {@code cisco-asa}, …, {@code unknown})
 *       and {@code parse} ({@code ok}, {@code lenient}, {@code raw}).
 *   <li>{@code received}: kept as the source set it; set to now (from the clock) when absent or not
 *       epoch ms.
 *   <li>{@code peer}: never touched; {@code site}: the configured value, if any.
 * </ul>
 *
 * Never drops an event and never changes its body. A header the event already has is kept unless
 * named in {@code overwrite}. Thread-safe: sources call it from several threads (one per Netty
 * event loop); each thread parses into its own reusable {@link ParseResult}, so the only per-event
 * allocations are the header map's entries and the strings of the headers set from the message
 * (app, procid, msgid, host, the event time's digits); each is made once, straight from the message
 * bytes.
 *
 * <p>Flume configuration: {@code type = org.flafka.interceptors.SyslogInterceptor$Builder}; keys in
 * {@link SyslogInterceptorConfig}.
 */
public final class SyslogInterceptor implements Interceptor {

  private static final Logger LOG = LoggerFactory.getLogger(SyslogInterceptor.class);

  private final SyslogParser parser;
  private final Clock clock;
  private final ThreadLocal<PerThread> perThread = ThreadLocal.withInitial(PerThread::new);
  private final SyslogInterceptorCounter counter = SyslogInterceptorCounter.instance();
  private final ThreadLocal<SyslogInterceptorCounter.Tally> tallies =
      ThreadLocal.withInitial(SyslogInterceptorCounter.Tally::new);

  private final String site;
  private final boolean hostLowerCase;
  private final int hostMaxLength;
  // Which headers to set, and which to replace when present: read per event, so plain fields.
  private final boolean setTimestamp;
  private final boolean setHost;
  private final boolean setFacility;
  private final boolean setSeverity;
  private final boolean setApp;
  private final boolean setProcid;
  private final boolean setMsgid;
  private final boolean setFormat;
  private final boolean setParse;
  private final boolean setReceived;
  private final boolean setSite;
  private final boolean replaceTimestamp;
  private final boolean replaceHost;
  private final boolean replaceFacility;
  private final boolean replaceSeverity;
  private final boolean replaceApp;
  private final boolean replaceProcid;
  private final boolean replaceMsgid;
  private final boolean replaceFormat;
  private final boolean replaceParse;
  private final boolean replaceSite;

  SyslogInterceptor(SyslogInterceptorConfig config, Clock clock) {
    SyslogParserOptions options = config.parserOptions();
    this.parser = new SyslogParser(options);
    this.clock = clock;
    this.site = config.site();
    this.hostLowerCase = config.hostLowerCase();
    this.hostMaxLength = config.hostMaxLength();
    this.setTimestamp = config.sets(TIMESTAMP);
    this.setHost = config.sets(HOST);
    this.setFacility = config.sets(FACILITY);
    this.setSeverity = config.sets(SEVERITY);
    this.setApp = config.sets(APP);
    this.setProcid = config.sets(PROCID);
    this.setMsgid = config.sets(MSGID);
    this.setFormat = config.sets(FORMAT);
    this.setParse = config.sets(PARSE);
    this.setReceived = config.sets(RECEIVED);
    this.setSite = config.sets(SITE) && !site.isEmpty();
    this.replaceTimestamp = config.overwrites(TIMESTAMP);
    this.replaceHost = config.overwrites(HOST);
    this.replaceFacility = config.overwrites(FACILITY);
    this.replaceSeverity = config.overwrites(SEVERITY);
    this.replaceApp = config.overwrites(APP);
    this.replaceProcid = config.overwrites(PROCID);
    this.replaceMsgid = config.overwrites(MSGID);
    this.replaceFormat = config.overwrites(FORMAT);
    this.replaceParse = config.overwrites(PARSE);
    this.replaceSite = config.overwrites(SITE);
  }

  @Override
  public void initialize() {}

  /** Sets the headers in place and returns the same event; never null, never a changed body. */
  @Override
  public Event intercept(Event event) {
    SyslogInterceptorCounter.Tally tally = tallies.get();
    intercept(event, tally);
    tally.addTo(counter);
    return event;
  }

  @Override
  public List<Event> intercept(List<Event> events) {
    SyslogInterceptorCounter.Tally tally = tallies.get();
    for (Event event : events) {
      intercept(event, tally);
    }
    tally.addTo(counter);
    return events;
  }

  /** Sets one event's headers and counts what its time was made of in {@code tally}. */
  private void intercept(Event event, SyslogInterceptorCounter.Tally tally) {
    Map<String, String> headers = event.getHeaders();
    String receivedHeader = headers.get(RECEIVED);
    long received = EpochMillis.parse(receivedHeader);
    if (received == EpochMillis.INVALID) {
      received = clock.millis();
      receivedHeader = null;
      if (setReceived) {
        receivedHeader = Long.toString(received);
        headers.put(RECEIVED, receivedHeader);
      }
    }
    byte[] body = event.getBody();
    PerThread reused = perThread.get();
    ParseResult result = reused.result;
    try {
      parser.parse(body, 0, body.length, received, result);
    } catch (RuntimeException e) {
      // The parser promises never to throw; if it ever does, the event still goes on, marked raw.
      LOG.warn(
          "syslog parser failed on a {}-byte message; passing it on with parse=raw",
          body.length,
          e);
      setRaw(headers, received);
      tally.addRaw();
      return;
    }
    tally.add(result);
    // One map operation per header: a value made for a header the event already has is wasted, but
    // that is rare (a header is only there when another interceptor or the sender set it). Each
    // value from SyslogFacts, which the core's and any consumer's derivation use too.
    if (setFacility && result.hasPri()) {
      put(headers, FACILITY, SyslogFacts.facility(result), replaceFacility);
    }
    if (setSeverity && result.hasPri()) {
      put(headers, SEVERITY, SyslogFacts.severity(result), replaceSeverity);
    }
    if (setApp && result.appOffset() >= 0) {
      put(headers, APP, SyslogFacts.app(result), replaceApp);
    }
    if (setProcid && result.procidOffset() >= 0) {
      put(headers, PROCID, SyslogFacts.procid(result), replaceProcid);
    }
    if (setMsgid && result.msgidOffset() >= 0) {
      put(headers, MSGID, SyslogFacts.msgid(result), replaceMsgid);
    }
    if (setFormat) {
      put(headers, FORMAT, SyslogFacts.format(result), replaceFormat);
    }
    if (setParse) {
      put(headers, PARSE, SyslogFacts.parse(result), replaceParse);
    }
    if (setSite) {
      put(headers, SITE, site, replaceSite);
    }
    if (setHost) {
      String host =
          result.hostnameOffset() < 0
              ? null
              : HostNames.sanitize(
                  body,
                  result.hostnameOffset(),
                  result.hostnameLength(),
                  hostLowerCase,
                  hostMaxLength);
      put(
          headers,
          HOST,
          host != null
              ? host
              : HostNames.hostHeader(null, headers.get(PEER), hostLowerCase, hostMaxLength),
          replaceHost);
    }
    if (setTimestamp && absentOrReplaced(headers, TIMESTAMP, replaceTimestamp)) {
      // The receive time's text is already in the received header: no new string for it.
      headers.put(
          TIMESTAMP,
          result.timestampFromMessage() || receivedHeader == null
              ? reused.timestampText(result.timestampMillis())
              : receivedHeader);
      headers.put(TIMESTAMP_SOURCE, SyslogFacts.timestampSource(result));
      String rejected = SyslogFacts.timestampRejected(result);
      if (rejected != null) {
        headers.put(TIMESTAMP_REJECTED, rejected);
      } else {
        headers.remove(TIMESTAMP_REJECTED);
      }
    }
  }

  @Override
  public void close() {}

  /** What one source thread reuses from event to event. */
  private static final class PerThread {
    final ParseResult result = new ParseResult();
    private long lastTimestamp = Long.MIN_VALUE;
    private String lastTimestampText;

    /**
     * The header text of {@code millis}: most devices stamp to the second, so runs of events share
     * one timestamp, and one String (which the Kafka sink then encodes once for the run).
     */
    String timestampText(long millis) {
      if (millis != lastTimestamp || lastTimestampText == null) {
        lastTimestamp = millis;
        lastTimestampText = Long.toString(millis);
      }
      return lastTimestampText;
    }
  }

  private void setRaw(Map<String, String> headers, long received) {
    if (setParse && absentOrReplaced(headers, PARSE, replaceParse)) {
      headers.put(PARSE, ParseStatus.RAW.headerValue());
    }
    if (setFormat && absentOrReplaced(headers, FORMAT, replaceFormat)) {
      headers.put(FORMAT, SyslogFormat.UNKNOWN.headerValue());
    }
    if (setHost && absentOrReplaced(headers, HOST, replaceHost)) {
      headers.put(
          HOST, HostNames.hostHeader(null, headers.get(PEER), hostLowerCase, hostMaxLength));
    }
    if (setTimestamp && absentOrReplaced(headers, TIMESTAMP, replaceTimestamp)) {
      headers.put(TIMESTAMP, Long.toString(received));
      headers.put(TIMESTAMP_SOURCE, TimestampSource.RECEIVED.headerValue());
      headers.remove(TIMESTAMP_REJECTED);
    }
  }

  private static void put(
      Map<String, String> headers, String header, String value, boolean replace) {
    if (replace) {
      headers.put(header, value);
    } else {
      headers.putIfAbsent(header, value);
    }
  }

  private static boolean absentOrReplaced(
      Map<String, String> headers, String header, boolean replace) {
    return replace || !headers.containsKey(header);
  }

  /**
   * Reads {@link SyslogInterceptorConfig} from the interceptor's Flume context and builds the
   * interceptor.
   */
  public static final class Builder implements Interceptor.Builder {
    private SyslogInterceptorConfig config;

    @Override
    public void configure(Context context) {
      config = new SyslogInterceptorConfig(context.getParameters());
    }

    @Override
    public Interceptor build() {
      if (config == null) {
        throw new IllegalStateException("configure(Context) must be called before build()");
      }
      return new SyslogInterceptor(config, Clock.systemUTC());
    }
  }
}
