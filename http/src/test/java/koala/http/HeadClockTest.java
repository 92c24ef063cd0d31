package koala.http;

import static koala.http.HeadClock.Parse.HEAD;
import static koala.http.HeadClock.Parse.PAST;
import static koala.http.HeadClock.Parse.WAITING;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When a request head has been arriving too long: bound 1 s, a look every 250 ms. */
class HeadClockTest {
    private final HeadClock clock = new HeadClock(Duration.ofSeconds(1), HeadClock.Look.OPENED);

    private static Instant at(long ms) {
        return Instant.EPOCH.plusMillis(ms);
    }

    @Test
    void aHeadTrickledLineByLineIsOverdueAtTheFirstLookOneSecondAfterItWasSeen() {
        // "GET / HTTP/1.1" at 100 ms, a header line every 200 ms: the parser never leaves the head
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 0, 16), at(250))).isFalse(); // clock starts: 0 ms
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 0, 40), at(500))).isFalse(); // 250 ms
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 0, 64), at(750))).isFalse(); // 500 ms
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 0, 88), at(1000))).isFalse(); // 750 ms
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 0, 112), at(1250))).isTrue(); // 1000 ms: the bound
    }

    @Test
    void headsThatEachArriveInTimeNeverAddUp() {
        // three requests on one kept-alive connection, each head seen arriving at one look only
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 0, 20), at(250))).isFalse();
        assertThat(clock.overdue(new HeadClock.Look(PAST, 1, 60), at(500))).isFalse(); // complete: clock stops
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 1, 80), at(750))).isFalse(); // the next: from 750
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 2, 140), at(1500))).isFalse(); // a third: from 1500
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 2, 150), at(2250))).isFalse(); // 750 ms of it
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 2, 160), at(2500))).isTrue(); // 1000 ms of it
    }

    @Test
    void waitingBetweenRequestsWithoutSendingIsNotAHead() {
        assertThat(clock.overdue(new HeadClock.Look(PAST, 1, 60), at(250))).isFalse(); // handled and answered
        for (long ms = 500; ms <= 5000; ms += 250) {
            assertThat(clock.overdue(new HeadClock.Look(WAITING, 1, 60), at(ms))).isFalse();
        }
    }

    @Test
    void blankLinesWhileWaitingStartTheClockAndKeepItRunningWhenTheyPause() {
        assertThat(clock.overdue(new HeadClock.Look(WAITING, 0, 2), at(250))).isFalse(); // first look: from 250
        assertThat(clock.overdue(new HeadClock.Look(WAITING, 0, 2), at(500))).isFalse(); // a pause: still 250 ms
        assertThat(clock.overdue(new HeadClock.Look(WAITING, 0, 4), at(750))).isFalse();
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 0, 20), at(1000))).isFalse(); // a request line at last
        assertThat(clock.overdue(new HeadClock.Look(HEAD, 0, 30), at(1250))).isTrue(); // 1000 ms since 250
    }

    @Test
    void bytesOfABodyReadBeforeTheParserWentBackToWaitingAreNotBlankLines() {
        // a look mid-body, then the request is answered and the connection waits: no head is arriving
        assertThat(clock.overdue(new HeadClock.Look(PAST, 1, 100), at(250))).isFalse();
        assertThat(clock.overdue(new HeadClock.Look(WAITING, 1, 900), at(500))).isFalse();
        assertThat(clock.overdue(new HeadClock.Look(WAITING, 1, 900), at(1750))).isFalse();
    }
}
