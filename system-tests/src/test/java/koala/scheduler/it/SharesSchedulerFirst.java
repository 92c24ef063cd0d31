package koala.scheduler.it;

import java.util.Comparator;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * The suite's order of classes (junit-platform.properties): those that share the scheduler first, so that
 * it starts once, then the others; by name within each.
 */
public final class SharesSchedulerFirst implements ClassOrderer {
    @Override
    public void orderClasses(ClassOrdererContext context) {
        context.getClassDescriptors().sort(Comparator
                .comparing((ClassDescriptor d) -> !d.isAnnotated(SharesScheduler.class))
                .thenComparing(d -> d.getTestClass().getSimpleName()));
    }
}
