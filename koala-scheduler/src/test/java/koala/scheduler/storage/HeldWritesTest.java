package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Three submits in one unit (a job, its transition, its answer each) go as three batches of three
 * rows; a usage record saved, marked written and saved again keeps its order, since all three
 * write one table.
 */
class HeldWritesTest {
    private static final String JOB = "INSERT INTO jobs AS t (id) VALUES (?) ON CONFLICT (id) DO NOTHING";
    private static final String TRANSITION = "INSERT INTO transitions (job, seq) VALUES (?,?)";
    private static final String ANSWER = "INSERT INTO answers (owner, request) VALUES (?,?)";
    private static final String RECORD = "INSERT INTO usage_records (job, record) VALUES (?,?)";
    private static final String WRITTEN = "UPDATE usage_records SET written_at = ? WHERE job = ?";

    @Test
    void writesToOtherTablesGoTogetherByStatement() {
        HeldWrites held = new HeldWrites();
        for (long id = 1; id <= 3; id++) {
            held.add(JOB, List.of(id));
            held.add(TRANSITION, List.of(id, id));
            held.add(ANSWER, List.of("alice", "r-" + id));
        }

        List<HeldWrites.Batch> batches = held.take();

        assertThat(batches).extracting(b -> b.sql).containsExactly(JOB, TRANSITION, ANSWER);
        assertThat(batches).allSatisfy(b -> assertThat(b.rows).hasSize(3));
        assertThat(batches.get(0).rows).containsExactly(List.of(1L), List.of(2L), List.of(3L));
        assertThat(held.isEmpty()).isTrue();
    }

    @Test
    void writesToOneTableKeepTheirOrder() {
        HeldWrites held = new HeldWrites();
        held.add(RECORD, List.of(1L, "{}"));
        held.add(WRITTEN, List.of("10:00", 1L));
        held.add(RECORD, List.of(2L, "{}"));
        held.add(JOB, List.of(2L));

        assertThat(held.take()).extracting(b -> b.sql + " x" + b.rows.size())
                .containsExactly(RECORD + " x1", WRITTEN + " x1", RECORD + " x1", JOB + " x1");
    }

    @Test
    void aStatementOfNoKnownTableKeepsItsPlace() {
        HeldWrites held = new HeldWrites();
        held.add(JOB, List.of(1L));
        held.add("SELECT setval('job_ids', 40)", List.of());
        held.add(JOB, List.of(2L));

        assertThat(held.take()).hasSize(3);
        assertThat(HeldWrites.table("  update Jobs SET state = ?")).isEqualTo("jobs");
    }

    /** A read of answers sends the batches up to the last that writes answers; the usage records wait for the commit. */
    @Test
    void aReadSendsFirstOnlyWhatItMustSee() {
        HeldWrites held = new HeldWrites();
        held.add(JOB, List.of(1L));
        held.add(ANSWER, List.of("alice", "r-1"));
        held.add(RECORD, List.of(1L, "{}"));

        assertThat(held.takeFor("SELECT answer, asked FROM answers WHERE owner = ? AND request = ?"))
                .extracting(b -> b.sql).containsExactly(JOB, ANSWER);
        assertThat(held.takeFor("SELECT * FROM nodes WHERE job = ?")).isEmpty();
        assertThat(held.takeFor("SELECT nextval('job_ids')")).extracting(b -> b.sql).containsExactly(RECORD);
        assertThat(HeldWrites.tablesRead("DELETE FROM nodes WHERE job IN (SELECT id FROM jobs WHERE ended_at < ?)"))
                .containsExactlyInAnyOrder("nodes", "jobs");
    }
}
