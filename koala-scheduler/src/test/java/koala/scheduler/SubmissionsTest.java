package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.storage.H2Store;
import org.junit.jupiter.api.Test;

class SubmissionsTest {
    private static NodeClaim node(String id) {
        return new NodeClaim(id, 7, 0, 0, "fs0", NodeState.SUBMITTED, null, null, null, "tok", Instant.EPOCH, 1);
    }

    /**
     * Node 7.0.0's pilot is asked for in the unit that records the node: it reaches its site's thread
     * only once the unit is committed, so that SGE never runs a pilot whose node a crash forgot.
     */
    @Test
    void aPilotLeavesForItsSiteOnlyOnceItsNodeIsKept() {
        List<String> submitted = Collections.synchronizedList(new ArrayList<>());
        List<Runnable> heldUntilCommit = new ArrayList<>();
        Submissions submissions = Submissions.threaded((node, owner, claim) -> {
            submitted.add(node.id());
            return "41";
        }, Runnable::run, heldUntilCommit::add);
        try {
            submissions.submit(node("7.0.0"), "alice", outcome -> { });
            assertThat(heldUntilCommit).hasSize(1);
            assertThat(submitted).as("not before the commit").isEmpty();
            heldUntilCommit.forEach(Runnable::run);
            org.awaitility.Awaitility.await().until(() -> submitted.contains("7.0.0"));
        } finally {
            submissions.close();
        }
    }

    /** A question to a site is asked on its thread and answered on the loop; one that fails is answered null. */
    @Test
    void aSiteIsAskedOffTheLoopAndAnswersOnIt() {
        List<String> onLoop = Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.Executor loop = work -> {
            onLoop.add("on the loop");
            work.run();
        };
        Submissions submissions = Submissions.on((node, owner, claim) -> "41", Runnable::run, loop);
        List<String> answers = new ArrayList<>();
        submissions.ask("fs0", () -> "exceeded its 2G memory (max 3.01G): stopped by SGE", answers::add);
        submissions.<String>ask("fs0", () -> {
            throw new IllegalStateException("agent gone");
        }, answers::add);
        assertThat(answers).containsExactly("exceeded its 2G memory (max 3.01G): stopped by SGE", null);
        assertThat(onLoop).hasSize(2);
    }

    /** With the store: a pilot of a unit that committed is submitted, one of a unit undone never is. */
    @Test
    void aPilotOfAUnitUndoneIsNeverSubmitted() throws Exception {
        List<String> submitted = Collections.synchronizedList(new ArrayList<>());
        List<String> outcomes = Collections.synchronizedList(new ArrayList<>());
        try (H2Store store = H2Store.inMemory()) {
            Submissions submissions = Submissions.threaded((node, owner, claim) -> {
                submitted.add(node.id());
                return "41";
            }, Runnable::run, store::afterCommit);
            try {
                try {
                    store.inTransaction(() -> {
                        store.saveNode(node("7.0.1"));
                        submissions.submit(node("7.0.1"), "alice", outcome -> outcomes.add("7.0.1"));
                        throw new IllegalStateException("the unit fails");
                    });
                } catch (IllegalStateException expected) {
                    // undone
                }
                store.inTransaction(() -> {
                    store.saveNode(node("7.0.0"));
                    submissions.submit(node("7.0.0"), "alice", outcome -> outcomes.add("7.0.0 as " + outcome.pilot()));
                });
                org.awaitility.Awaitility.await().until(() -> outcomes.contains("7.0.0 as 41"));
                // the site's thread takes submissions in order: 7.0.1's would have come first
                assertThat(submitted).containsExactly("7.0.0");
                assertThat(store.nodes(7)).extracting(NodeClaim::id).containsExactly("7.0.0");
            } finally {
                submissions.close();
            }
        }
    }
}
