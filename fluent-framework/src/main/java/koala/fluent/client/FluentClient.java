package koala.fluent.client;

import java.net.URI;
import java.time.Duration;
import koala.common.api.FrameworkView;
import koala.common.api.SchedulerClient;
import koala.common.http.ApiException;
import koala.common.http.JsonHttpClient;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.FluentMessages.MasterStatus;
import koala.fluent.wire.FluentMessages.MetricsReport;

/** A client of one framework instance's master, found through the FrameworkJobManager. */
public final class FluentClient {
    private final JsonHttpClient master;

    public FluentClient(URI master) {
        this.master = new JsonHttpClient(master, Duration.ofSeconds(150));
    }

    /** The master of instance {@code id}, as its runner registered it with the FJM. */
    public static FluentClient of(SchedulerClient scheduler, long id) {
        FrameworkView instance = scheduler.framework(id);
        if (instance.master() == null || instance.master().address() == null) {
            throw new ApiException(409, "instance " + id + " (" + instance.state() + ") has no master address yet");
        }
        return new FluentClient(URI.create("http://" + instance.master().address()));
    }

    public URI url() {
        return master.base();
    }

    /** Submits a job; answers once it is placed (after the grow the master waits for, under OnDemand). */
    public JobReply submit(JobRequest job) {
        return master.post("/jobs", job, JobReply.class);
    }

    public JobReply job(String id) {
        return master.get("/jobs/" + id, JobReply.class);
    }

    public MasterStatus status() {
        return master.get("/status", MasterStatus.class);
    }

    public MetricsReport metrics() {
        return master.get("/metrics", MetricsReport.class);
    }
}
