package koala.sim;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;

/**
 * The pure modules stay pure: the decision code that the daemons run in real time and this
 * simulator runs in virtual time does no I/O over the network or to a database and never reads
 * the clock or sleeps — time is always a parameter. Guarded here because this module depends on
 * every one of them:
 * <ul>
 * <li>{@code provisioning} ({@code koala.provisioning..});</li>
 * <li>{@code arbitration} ({@code koala.arbitration..}, the grid shared out between framework instances);</li>
 * <li>{@code placement} ({@code koala.placement..});</li>
 * <li>{@code constraints} ({@code koala.constraints..});</li>
 * <li>{@code fluent-core} ({@code koala.fluent} only: {@code koala.fluent.master}, {@code .device},
 *     {@code .client} and {@code .wire} are the framework's processes, in {@code fluent-framework});</li>
 * <li>the simulator ({@code koala.sim..}; its experiments, {@code koala.sim.experiment}, which write
 *     CSV and PNG files and time the simulator with the wall clock, are in the module {@code experiments}).</li>
 * </ul>
 */
@AnalyzeClasses(packages = {"koala.provisioning", "koala.arbitration", "koala.placement", "koala.constraints", "koala.fluent", "koala.sim"},
        importOptions = ImportOption.DoNotIncludeTests.class)
class PureModulesTest {
    private static final DescribedPredicate<JavaClass> PURE = resideInAnyPackage("koala.provisioning..",
            "koala.arbitration..", "koala.placement..", "koala.constraints..", "koala.fluent", "koala.sim..")
            .as("classes of provisioning, arbitration, placement, constraints, fluent-core and the simulator");

    @ArchTest
    static final ArchRule NO_NETWORK_SERVER_OR_DATABASE = noClasses().that(PURE).should().dependOnClassesThat()
            .resideInAnyPackage("java.net..", "java.sql..", "javax.sql..", "com.sun.net.httpserver..",
                    "org.eclipse.jetty..", "org.h2..", "com.jcraft.jsch..")
            .because("decisions are made from the state they are given; I/O belongs to the daemons");

    @ArchTest
    static final ArchRule NO_CLOCK_READS_OR_SLEEPS = noClasses().that(PURE).should()
            .callMethodWhere(calls(InstantSource.class, "system"))
            .orShould().callMethodWhere(calls(Clock.class, "systemUTC", "systemDefaultZone", "system"))
            .orShould().callMethodWhere(calls(Instant.class, "now"))
            .orShould().callMethodWhere(calls(System.class, "currentTimeMillis", "nanoTime"))
            .orShould().callMethodWhere(calls(Thread.class, "sleep"))
            .because("time is a parameter, so the runner (real time) and the simulator (virtual time) run the "
                    + "same code");

    @ArchTest
    static final ArchRule CONSTRAINTS_NO_FILES_OR_THREADS = noClasses().that().resideInAPackage("koala.constraints..")
            .should().dependOnClassesThat().resideInAnyPackage("java.io..", "java.nio..", "java.util.concurrent..",
                    "java.lang.management..")
            .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
            .because("the constraints placer is a function of the cluster state and the requests it is given");

    /** A call to one of the named methods of {@code owner}, whatever its parameters. */
    private static DescribedPredicate<JavaMethodCall> calls(Class<?> owner, String... names) {
        List<String> wanted = List.of(names);
        return DescribedPredicate.describe(owner.getSimpleName() + "." + String.join("/", names) + "()",
                call -> call.getTargetOwner().isEquivalentTo(owner) && wanted.contains(call.getName()));
    }
}
