package org.flafka.sweep;

import org.flafka.core.HdfsBucketSink;
import org.flafka.edge.SyslogSource;
import org.flafka.interceptors.SyslogInterceptor;
import org.flafka.partitioner.StripePartitioner;
import org.flafka.stack.AgentRuntime;

/**
 * The plugins of this project that an agent process started by the CLI (the bench, the sweep's local target, the
 * CM emulator) may need: one class from each plugin module (edge, interceptors, partitioner, core), whose jar, or
 * classes directory in a build, goes on the agent's classpath. All of them whatever the agent runs, so that any
 * template setting (a partitioner, the core's sink) finds its classes.
 */
public final class OurPlugins {

    private OurPlugins() {
    }

    /** {@code runtime} plus every plugin module. */
    public static AgentRuntime addTo(AgentRuntime runtime) {
        return runtime.withPluginsOf(SyslogSource.class, SyslogInterceptor.class, StripePartitioner.class,
                HdfsBucketSink.class);
    }
}
