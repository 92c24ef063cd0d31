package koala.jdf;

import static koala.jdf.Jdf.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.common.json.Json;
import org.junit.jupiter.api.Test;

/** Valid job descriptions, read into exactly these values. */
class JdfParserTest {
    @Test
    void oneRequestIsAJobOfOneComponentWithEveryDefault() {
        JobDescription job = JdfParser.parse("jobs/hello.jdf", "&(executable = /bin/hostname)", ClusterCatalog.NONE);

        assertThat(job).isEqualTo(new JobDescription("jobs/hello.jdf", "hello", JobKind.NON_FIXED, null, "low",
                List.of(new ComponentSpec(0, 1, "/bin/hostname", List.of(), null, Map.of(), null, null, null, null,
                        List.of(), null, new SourcePosition("jobs/hello.jdf", 1, 1))),
                Map.of(), new SourcePosition("jobs/hello.jdf", 1, 1)));
    }

    @Test
    void everyComponentAttribute() {
        ComponentSpec c = parse("""
                &(count = 4)
                 (executable = /bin/sh)
                 (arguments = "-c" "echo ""hi"" there" -x)
                 (directory = /tmp/work)
                 (environment = (OMP_NUM_THREADS 4) (GREETING "hello world"))
                 (stdout = /tmp/out)
                 (stderr = /tmp/err)
                 (maxWallTime = 90)
                 (resourceManagerContact = fs1)
                 (inputFiles = genome.dat reads.dat)
                """).components().get(0);

        assertThat(c.count()).isEqualTo(4);
        assertThat(c.executable()).isEqualTo("/bin/sh");
        assertThat(c.arguments()).containsExactly("-c", "echo \"hi\" there", "-x");
        assertThat(c.directory()).isEqualTo("/tmp/work");
        assertThat(c.environment()).containsOnly(entry("OMP_NUM_THREADS", "4"), entry("GREETING", "hello world"));
        assertThat(c.stdout()).isEqualTo("/tmp/out");
        assertThat(c.stderr()).isEqualTo("/tmp/err");
        assertThat(c.maxWallTime()).isEqualTo(Duration.ofMinutes(90));
        assertThat(c.cluster()).isEqualTo("fs1");
        assertThat(c.inputFiles()).containsExactly("genome.dat", "reads.dat");
        assertThat(c.role()).isNull();
    }

    @Test
    void aMultiRequestIsOneCoAllocatedJobWhoseKindFollowsItsPinnedComponents() {
        String semi = """
                +( &(count = 8)(executable = /bin/hostname)(resourceManagerContact = fs0) )
                 ( &(count = 4)(executable = /bin/hostname) )
                """;
        JobDescription job = parse(semi);

        assertThat(job.kind()).isEqualTo(JobKind.SEMI_FIXED);
        assertThat(job.components()).extracting(ComponentSpec::index, ComponentSpec::count, ComponentSpec::cluster)
                .containsExactly(tuple(0, 8, "fs0"),
                        tuple(1, 4, null));
        assertThat(job.totalNodes()).isEqualTo(12);
        assertThat(job.components()).extracting(ComponentSpec::position).containsExactly(
                new SourcePosition("job.jdf", 1, 4), new SourcePosition("job.jdf", 2, 4));
        assertThat(job.position()).isEqualTo(new SourcePosition("job.jdf", 1, 4));

        assertThat(parse(semi.replace("(count = 4)", "(count = 4)(resourceManagerContact = fs2)")).kind())
                .isEqualTo(JobKind.FIXED);
        assertThat(parse(semi.replace("(resourceManagerContact = fs0)", "")).kind()).isEqualTo(JobKind.NON_FIXED);
    }

    @Test
    void jobLevelAttributesMayBeWrittenInAnyComponentAndRepeatedIfTheyAgree() {
        JobDescription job = parse("""
                +( &(count = 2)(executable = /bin/hostname)(priority = high) )
                 ( &(count = 2)(executable = /bin/hostname)(name = "my job")(PRIORITY = High)
                    (placement = Cluster-Minimization) )
                """);

        assertThat(job.name()).isEqualTo("my job");
        assertThat(job.priority()).isEqualTo("high");
        assertThat(job.placement()).isEqualTo("cluster-minimization");
    }

    @Test
    void aFlexibleJobGetsFlexibleClusterMinimizationUnlessItNamesAPolicy() {
        JobDescription job = parse("&(jobType = flexible)(count = 24)(executable = /bin/sleep)(arguments = 20)");
        assertThat(job.kind()).isEqualTo(JobKind.FLEXIBLE);
        assertThat(job.placement()).isEqualTo("flexible-cluster-minimization");

        assertThat(parse("&(jobType = flexible)(count = 4)(executable = /bin/sleep)(placement = worst-fit)").placement())
                .isEqualTo("worst-fit");
    }

    /** {@code runner = mpi}: KOALA starts the components as one MPI world; any placement kind may have it. */
    @Test
    void anMpiJobSaysSoWhateverItsKind() {
        JobDescription semi = parse("+( &(runner = mpi)(resourceManagerContact = fs0)(count = 2)(executable = /usr/bin/python3)"
                + "(arguments = ring.py) )( &(count = 2)(executable = /usr/bin/python3)(arguments = ring.py) )");
        assertThat(semi.mpi()).isTrue();
        assertThat(semi.kind()).isEqualTo(JobKind.SEMI_FIXED);
        JobDescription flexible = parse("&(jobType = flexible)(runner = mpi)(count = 20)(executable = /usr/bin/hpcc)");
        assertThat(flexible.mpi()).isTrue();
        assertThat(flexible.kind()).isEqualTo(JobKind.FLEXIBLE);
        assertThat(parse("&(count = 2)(executable = /bin/true)").mpi()).isFalse();
    }

    @Test
    void aFrameworkJobHasRolesAndKeepsItsFrameworkAttributesAsWritten() {
        JobDescription job = parse("""
                +( &(jobType = framework)(role = master)(executable = /bin/sleep)(arguments = infinity)
                    (provisioning = OnDemand)(fMax = 20)(tIdle = 180)(uMin = 40)(uMax = 50.5)
                    (samplePeriod = 40)(orchestratorThreshold = 45)(weight = 2)(min_share = 4) )
                 ( &(role = orchestrator)(count = 1)(executable = /bin/sleep) )
                 ( &(role = worker)(count = 0)(executable = /bin/sleep) )
                """);

        assertThat(job.kind()).isEqualTo(JobKind.FRAMEWORK);
        assertThat(job.components()).extracting(ComponentSpec::role, ComponentSpec::count).containsExactly(
                tuple("master", 1),
                tuple("orchestrator", 1),
                tuple("worker", 0));
        assertThat(job.framework()).containsOnly(entry("provisioning", "ondemand"), entry("fMax", "20"),
                entry("tIdle", "180"), entry("uMin", "40"), entry("uMax", "50.5"), entry("samplePeriod", "40"),
                entry("orchestratorThreshold", "45"), entry("weight", "2"), entry("minShare", "4"));
    }

    @Test
    void withoutThePolicyNamesAnyProvisioningNameIsReadLowerCased() {
        String text = "+(&(jobType = framework)(role = master)(provisioning = Elastic))(&(role = orchestrator))";

        assertThat(JdfParser.parse("job.jdf", text, Jdf.TESTBED).framework()).containsEntry("provisioning", "elastic");
        assertThat(Jdf.errors(text)).containsExactly(
                "job.jdf:1:56: provisioning: 'Elastic' is not one of: static, ondemand, proactive, reserve, pool");
    }

    @Test
    void aFrameworkComponentNeedsNoExecutable() {
        JobDescription job = parse("+(&(jobType = framework)(role = master))(&(role = orchestrator))");
        assertThat(job.components()).extracting(ComponentSpec::executable).containsOnlyNulls();
    }

    @Test
    void namesAreMatchedAsGlobusDoesWithoutCaseOrUnderscores() {
        ComponentSpec c = parse("&(EXECUTABLE = /bin/hostname)(Max_Wall_Time = 01:30:05)(resource_manager_contact = fs0)")
                .components().get(0);

        assertThat(c.executable()).isEqualTo("/bin/hostname");
        assertThat(c.maxWallTime()).isEqualTo(Duration.ofHours(1).plusMinutes(30).plusSeconds(5));
        assertThat(c.cluster()).isEqualTo("fs0");
    }

    @Test
    void commentsWhitespaceAndBothQuotesAnywhereBetweenTokens() {
        JobDescription job = parse("""
                (* a comment (with parentheses) before the job *)
                  &  ( (* inside a relation *) executable
                       =
                       '/bin/echo' )
                     (arguments = 'it''s' "a ""b""\" (* between values *) plain)
                     (environment = ( A 'x y' ) )
                """);

        ComponentSpec c = job.components().get(0);
        assertThat(c.executable()).isEqualTo("/bin/echo");
        assertThat(c.arguments()).containsExactly("it's", "a \"b\"", "plain");
        assertThat(c.environment()).containsExactly(entry("A", "x y"));
        assertThat(job.position()).isEqualTo(new SourcePosition("job.jdf", 2, 3));
    }

    @Test
    void unquotedLiteralsTakeEveryCharacterButBlanksParenthesesQuotesAndOperators() {
        ComponentSpec c = parse("&(executable=/opt/a_b.c/run-1)(arguments = user@host:~/x $HOME +1,2 a^b #)")
                .components().get(0);

        assertThat(c.executable()).isEqualTo("/opt/a_b.c/run-1");
        assertThat(c.arguments()).containsExactly("user@host:~/x", "$HOME", "+1,2", "a^b", "#");
    }

    @Test
    void emptySequencesAreAllowed() {
        ComponentSpec c = parse("&(executable = /bin/true)(arguments = )(inputFiles =)(environment = )").components()
                .get(0);
        assertThat(c.arguments()).isEmpty();
        assertThat(c.inputFiles()).isEmpty();
        assertThat(c.environment()).isEmpty();
    }

    @Test
    void theDefaultNameIsTheFileNameWithoutDirectoryAndExtension() {
        assertThat(JdfParser.parse("/home/u/runs/big.run.jdf", "&(executable=/bin/true)", ClusterCatalog.NONE).name())
                .isEqualTo("big.run");
        assertThat(JdfParser.parse("noext", "&(executable=/bin/true)", ClusterCatalog.NONE).name()).isEqualTo("noext");
        assertThat(JdfParser.parse("-", "&(executable=/bin/true)", ClusterCatalog.NONE).name()).isEqualTo("stdin");
    }

    @Test
    void withoutAGridOnlySyntaxAndValuesAreChecked() {
        JobDescription job = JdfParser.parse("job.jdf", "&(count = 500)(executable = /bin/true)(resourceManagerContact = x)",
                ClusterCatalog.NONE);
        assertThat(job.kind()).isEqualTo(JobKind.FIXED);
        assertThat(job.totalNodes()).isEqualTo(500);
    }

    @Test
    void windowsLineEndingsAndTabsCountAsBlanks() {
        JobDescription job = parse("&(executable = /bin/true)\r\n\t(count = 2)\r\n");
        assertThat(job.totalNodes()).isEqualTo(2);
        assertThat(Jdf.errors("&(executable = /bin/true)\r\n\t(cont = 2)\r\n"))
                .containsExactly("job.jdf:2:3: unknown attribute 'cont'; did you mean 'count'?");
    }

    @Test
    void aJobSurvivesAJsonRoundTripWithItsWallTimeInIso8601() throws Exception {
        JobDescription job = parse("""
                +( &(count = 2)(executable = /bin/sh)(arguments = -c date)(maxWallTime = 01:30:00)
                    (environment = (A 1))(resourceManagerContact = fs0)(inputFiles = genome.dat) )
                 ( &(count = 1)(executable = /bin/true)(priority = high) )
                """);

        String json = Json.write(job);

        assertThat(json).contains("\"maxWallTime\":\"PT1H30M\"");
        assertThat(Json.mapper().readValue(json, JobDescription.class)).isEqualTo(job);
    }
}
