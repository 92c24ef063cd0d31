package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.MasterAddress;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.ReleaseRequest;
import koala.api.scheduler.SchedulerClient;
import koala.http.ApiException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** What a framework runner does with the scheduler: open an allocation, grow it, shrink it, close it. */
@SharesScheduler
class AllocationIT {

    private static GrowRequest workers(int n, String site) {
        return new GrowRequest(n, "worker", "/bin/sleep", List.of("600"), Map.of(), site);
    }

    @Test
    void aRunnerGrowsItsAllocationAsFarAsTheGridGoesShrinksItAndClosesIt() throws Exception {
        try (TestScheduler scheduler = TestScheduler.shared()) {
            SchedulerClient client = scheduler.client();
            JobView allocation = client.allocate(new AllocationRequest("fluent-1"));
            assertThat(allocation.state()).isEqualTo("RUNNING");
            assertThat(allocation.kind()).isEqualTo("ALLOCATION");
            long id = allocation.id();

            GrowResult first = client.grow(id, workers(3, "fs1"));
            assertThat(first.granted()).isEqualTo(3);
            assertThat(first.reason()).isNull();
            assertThat(first.nodes()).containsExactly(id + ".0.0", id + ".0.1", id + ".0.2");
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> client.job(id).nodes().stream()
                    .filter(n -> n.state().equals("RUNNING")).count() == 3);

            GrowResult partial = client.grow(id, workers(10, "fs1"));
            assertThat(partial.granted()).isEqualTo(5);
            assertThat(partial.reason()).isEqualTo("partial: 5 of 10 nodes, the grid has no more idle on fs1");
            GrowResult refused = client.grow(id, workers(1, "fs1"));
            assertThat(refused.granted()).isZero();
            assertThat(refused.reason()).isEqualTo("grid full: no idle node on fs1");

            JobView other = TestScheduler.submit(client, "other", "&(count = 1)(executable = /bin/true)");
            assertThatThrownBy(() -> client.release(id, new ReleaseRequest(List.of(id + ".0.0", other.id() + ".0.0"))))
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.status()).isEqualTo(409);
                        assertThat(e.getMessage()).isEqualTo("node " + other.id() + ".0.0 is not a node of allocation " + id);
                    });
            assertThat(client.job(id).nodes()).filteredOn(n -> n.id().equals(id + ".0.0"))
                    .extracting(NodeView::state).containsExactly("RUNNING");
            assertThatThrownBy(() -> client.grow(id, workers(0, null)))
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.field()).isEqualTo("nodes"));

            FrameworkView registered = client.register(new FrameworkRegistration(id, "fluent-1", "fluent.jdf", "&(...)",
                    "ondemand", Map.of("fMax", "20"), "http://127.0.0.1:7501"));
            assertThat(registered.nodesPerRole()).containsExactly(Map.entry("worker", 8));
            assertThat(registered.sites()).containsExactly("fs1");
            assertThatThrownBy(() -> client.register(new FrameworkRegistration(other.id(), "x", null, null, "static",
                    Map.of(), null))).isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409));
            FrameworkView located = client.master(id, new MasterAddress(id + ".0.0", "vm:7600"));
            assertThat(located.master()).isEqualTo(new MasterAddress(id + ".0.0", "vm:7600"));
            assertThat(client.frameworks()).extracting(FrameworkView::name).containsExactly("fluent-1");

            JobView shrunk = client.release(id, new ReleaseRequest(List.of(id + ".0.0")));
            assertThat(shrunk.nodes()).filteredOn(n -> n.id().equals(id + ".0.0")).extracting(NodeView::state)
                    .containsExactly("RELEASED");

            JobView closed = client.closeAllocation(id);
            assertThat(closed.state()).isEqualTo("FINISHED");
            assertThat(closed.nodes()).extracting(NodeView::state).containsOnly("RELEASED");
            assertThat(client.framework(id).state()).isEqualTo("FINISHED");
            assertThat(client.framework(id).nodesPerRole()).isEmpty();
            assertThat(closed.history()).extracting(t -> t.event())
                    .containsExactly("ALLOCATED", "GREW", "GREW", "GROW_REFUSED", "SHRANK", "CLOSED");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
                    BackgroundLoadIT.site(client, "fs1").koala() == 0);
        }
    }
}
