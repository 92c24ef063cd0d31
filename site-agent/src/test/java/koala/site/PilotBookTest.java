package koala.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import koala.api.site.PilotState;
import koala.api.site.PilotStatus;
import org.junit.jupiter.api.Test;

class PilotBookTest {
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private static PilotStatus pilot(String id, PilotState state) {
        return new PilotStatus(id, "fs0", "koala-" + id, state, null, null, T0, null);
    }

    @Test
    void aFinishedPilotIsNeverChangedAgain() {
        PilotBook book = new PilotBook(10);
        book.add(pilot("1", PilotState.QUEUED), 1);
        book.update("1", s -> pilot("1", PilotState.DONE));
        PilotStatus after = book.update("1", s -> pilot("1", PilotState.FAILED));
        assertThat(after.state()).isEqualTo(PilotState.DONE);
    }

    @Test
    void pilotsOfAnEarlierSessionAreOrphansOnceANewSessionOpens() {
        PilotBook book = new PilotBook(10);
        book.add(pilot("1", PilotState.RUNNING), 1);
        book.add(pilot("2", PilotState.DONE), 1);
        book.add(pilot("3", PilotState.QUEUED), 2);
        assertThat(book.orphansBefore(2)).containsExactly("1");
        assertThat(book.unfinishedIn(2)).isEqualTo(1);
        assertThat(book.generationOf("3")).isEqualTo(2);
        assertThat(book.generationOf("9")).isEqualTo(-1);
    }

    @Test
    void onlyTheNewestFinishedPilotsAreKeptAndUnfinishedOnesAlways() {
        PilotBook book = new PilotBook(2);
        book.add(pilot("1", PilotState.RUNNING), 1);
        for (int i = 2; i <= 5; i++) {
            book.add(pilot(Integer.toString(i), PilotState.DONE), 1);
        }
        assertThat(book.all()).extracting(PilotStatus::id).containsExactly("1", "4", "5");
    }
}
