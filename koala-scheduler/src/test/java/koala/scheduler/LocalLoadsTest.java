package koala.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import koala.estimate.LocalLoad;
import org.junit.jupiter.api.Test;

class LocalLoadsTest {
    private static Instant at(String hhmm) {
        return Instant.parse("2026-12-07T" + hhmm + ":00Z");
    }

    /**
     * fs0's local users, one core per job. 10:00: a runs (seen at the first look: its start is not known).
     * 10:01: b starts. 10:05: a ended (not timed), c starts. 10:11: b ended, held 10 min. 10:20: c ended (15 min), d
     * starts. 10:26: d ended (6 min). The turnover is known from the third timed end: (10 + 15 + 6) / 3 = 10 min 20 s.
     * The load samples 1, 2, 2, 1, 1, 0 and now 0: mean 1, 90th percentile 2.
     */
    @Test
    void theTurnoverIsTheMeanHoldOfTheJobsSeenToStartAndEnd() {
        LocalLoads loads = new LocalLoads();
        loads.look("fs0", 1, Set.of("a"), at("10:00"));
        loads.look("fs0", 2, Set.of("a", "b"), at("10:01"));
        loads.look("fs0", 2, Set.of("b", "c"), at("10:05"));
        loads.look("fs0", 1, Set.of("c"), at("10:11"));
        loads.look("fs0", 1, Set.of("d"), at("10:20"));
        assertNull(loads.load("fs0", 1).turnover());

        loads.look("fs0", 0, Set.of(), at("10:26"));
        assertEquals(new LocalLoad(0, 1.0, 2, Duration.ofSeconds(620)), loads.load("fs0", 0));
    }

    /** Looks closer than a minute apart time the holds but add no load sample: 10:00 and 10:00:30 give one. */
    @Test
    void looksWithinAMinuteAddOneSample() {
        LocalLoads loads = new LocalLoads();
        loads.look("fs0", 4, Set.of("a"), at("10:00"));
        loads.look("fs0", 0, Set.of(), at("10:00").plusSeconds(30));

        assertEquals(new LocalLoad(0, 2.0, 4), loads.load("fs0", 0));
    }
}
