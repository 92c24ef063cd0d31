package koala.scheduler.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class that runs on {@link TestScheduler#shared}, the scheduler with no settings of its own but those a
 * running scheduler takes at a reload ({@link TestScheduler#shared(java.util.Map)}): the suite runs such classes
 * one after another ({@link SharesSchedulerFirst}), so one scheduler serves them all.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface SharesScheduler {
}
