package koala.scheduler.it;

import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * Stops the shared scheduler once the suite's classes have run (registered in META-INF/services), so that
 * it ends what it started before the test JVM exits; the JVM's shutdown hook is the fallback.
 */
public final class SharedSchedulerStop implements TestExecutionListener {
    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        TestScheduler.stopShared();
    }
}
