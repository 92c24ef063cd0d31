package koala.jdf;

import static koala.jdf.Jdf.errors;
import static koala.jdf.Jdf.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Tags and placement constraints on components and roles: read into exactly these values, or refused word by word. */
class JdfConstraintsTest {
    private static final ClusterCatalog RACKS = new ClusterCatalog(Map.of("fs0", 16, "fs1", 8), Set.of("rack"));

    @Test
    void aJobsTwoComponentsInDifferentRacks() {
        JobDescription job = JdfParser.parse("job.jdf", """
                +( &(executable = /bin/hostname)(count = 2)(tags = "a")(constraints = "anti-affinity b rack") )
                 ( &(executable = /bin/hostname)(count = 2)(tags = "b" "store") )
                """, RACKS);

        ComponentSpec a = job.components().get(0);
        assertThat(a.tags()).containsExactly("a");
        assertThat(a.constraints()).containsExactly(new ConstraintSpec("anti-affinity", List.of("b"), "rack", 0, 0,
                true, "anti-affinity b rack", new SourcePosition("job.jdf", 1, 72)));
        assertThat(job.components().get(1).tags()).containsExactly("b", "store");
        assertThat(job.components().get(1).constraints()).isEmpty();
    }

    @Test
    void theIssuesFrameworkExamples() {
        JobDescription job = parse("""
                +( &(jobType = framework)(role = master)(executable = /bin/sleep)
                    (constraints = "anti-affinity role=orchestrator site") )
                 ( &(role = orchestrator)(executable = /bin/sleep) )
                 ( &(role = worker)(count = 0)(executable = /bin/sleep)
                    (constraints = "cardinality 0..2 role=worker host" "affinity job=7,role=master site soft") )
                """);

        assertThat(job.components().get(0).constraints()).extracting(ConstraintSpec::kind, ConstraintSpec::target,
                ConstraintSpec::group, ConstraintSpec::min, ConstraintSpec::max, ConstraintSpec::hard)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("anti-affinity", List.of("role=orchestrator"),
                        "site", 0, 0, true));
        List<ConstraintSpec> workers = job.components().get(2).constraints();
        assertThat(workers).extracting(ConstraintSpec::kind, ConstraintSpec::min, ConstraintSpec::max,
                ConstraintSpec::hard, ConstraintSpec::global).containsExactly(
                org.assertj.core.groups.Tuple.tuple("cardinality", 0, 2, true, false),
                org.assertj.core.groups.Tuple.tuple("affinity", 1, Integer.MAX_VALUE, false, true));
        assertThat(workers.get(1).target()).containsExactly("job=7", "role=master");
        assertThat(workers.get(0).position()).isEqualTo(new SourcePosition("job.jdf", 5, 21));
    }

    @Test
    void openUpperBoundsAndWordsInAnyCase() {
        ConstraintSpec k = parse("&(executable = /bin/true)(constraints = \"Cardinality 1..* component=0 network SOFT\")")
                .components().get(0).constraints().get(0);

        assertThat(k.min()).isEqualTo(1);
        assertThat(k.max()).isEqualTo(Integer.MAX_VALUE);
        assertThat(k.kind()).isEqualTo("cardinality");
        assertThat(k.hard()).isFalse();
    }

    @Test
    void eachBadWordIsNamedWhereItStands() {
        assertThat(errors("""
                &(executable = /bin/true)(constraints = "anti-affinity component=0" "cardinality 2 component=0 host"
                  "affinity component=0 site sometimes" "affinity component=0 site hard now" "")
                """)).containsExactly(
                "job.jdf:1:56: constraints: anti-affinity: missing the group (host, site, network, or one "
                        + "the grid declares), as in \"anti-affinity role=orchestrator site\"",
                "job.jdf:1:82: constraints: cardinality: '2' is not MIN..MAX (e.g. 0..2, 1..*)",
                "job.jdf:2:30: constraints: 'sometimes' is not hard or soft",
                "job.jdf:2:73: constraints: unexpected 'now' after the constraint; write \"affinity TARGET GROUP\", "
                        + "\"anti-affinity TARGET GROUP\" or \"cardinality MIN..MAX TARGET GROUP\", then hard (the "
                        + "default) or soft",
                "job.jdf:2:79: constraints: empty constraint; write \"affinity TARGET GROUP\", \"anti-affinity "
                        + "TARGET GROUP\" or \"cardinality MIN..MAX TARGET GROUP\", then hard (the default) or soft");
    }

    @Test
    void aHardLowerBoundFinerThanTheSiteIsRefusedForKoalaCannotKeepIt() {
        assertThat(errors("""
                &(executable = /bin/true)(tags = x)(constraints = "affinity x rack" "affinity x rack soft"
                  "cardinality 1..3 x host")
                """, RACKS)).containsExactly(
                "job.jdf:1:63: constraints: a hard affinity over rack cannot be kept: KOALA chooses a node's site "
                        + "and SGE its host; write it over site or network, or make it soft",
                "job.jdf:2:23: constraints: a hard cardinality with MIN above 0 over host cannot be kept: KOALA "
                        + "chooses a node's site and SGE its host; write it over site or network, or make it soft");
    }

    /**
     * The runner deploys a framework's master first: a hard lower bound of the master to its own
     * orchestrator has nothing to be near then and would keep the instance from starting. Refused, with
     * where to write it instead; on the orchestrator, or soft, it is taken.
     */
    @Test
    void aMastersHardAffinityToItsOwnLaterRolesIsRefusedForItCouldNeverBeMet() {
        assertThat(errors("""
                +( &(jobType = framework)(role = master)(executable = /bin/sleep)
                    (constraints = "affinity role=orchestrator site" "affinity role=orchestrator site soft") )
                 ( &(role = orchestrator)(executable = /bin/sleep)(constraints = "affinity role=master site") )
                """, RACKS)).containsExactly(
                "job.jdf:2:21: constraints: the master is deployed before the instance's other roles, so a hard "
                        + "affinity of it to role=orchestrator could never be met (there is nothing to be near yet); "
                        + "write it on the role it names, e.g. the orchestrator's (constraints = \"affinity "
                        + "role=master site\")");
    }

    @Test
    void groupKindsAreTheGridsWhenTheGridIsKnownAndAnyNameWhenNot() {
        String text = "&(executable = /bin/true)(tags = x)(constraints = \"anti-affinity x upgrade-domain\")";

        assertThat(errors(text, RACKS)).containsExactly("job.jdf:1:68: constraints: 'upgrade-domain' is not a kind "
                + "of node group (host, site, network, or of this grid: rack)");
        assertThat(JdfParser.parse("job.jdf", text, ClusterCatalog.NONE).components().get(0).constraints().get(0)
                .group()).isEqualTo("upgrade-domain");
    }

    @Test
    void tagsAreOneWordEachAndNotKoalasOwn() {
        assertThat(errors("&(executable = /bin/true)(tags = \"a b\" \"x,y\" \"job=3\" \"hbase=1\")")).containsExactly(
                "job.jdf:1:34: tags: 'a b' is not a tag: one word, without spaces or ','",
                "job.jdf:1:40: tags: 'x,y' is not a tag: one word, without spaces or ','",
                "job.jdf:1:46: tags: 'job=3' is KOALA's to give: every node carries job=, owner=, component= (and "
                        + "role=, instance= in a framework) tags of its own");
    }
}
