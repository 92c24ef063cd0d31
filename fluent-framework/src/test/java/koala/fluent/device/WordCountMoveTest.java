package koala.fluent.device;

import static koala.fluent.device.LoopbackDevices.signed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.fluent.wire.FluentMessages.ComponentState;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.Handover;
import koala.fluent.wire.FluentMessages.HandoverRequest;
import koala.fluent.wire.FluentMessages.Lines;
import koala.fluent.wire.FluentMessages.Repoint;
import koala.fluent.wire.FluentMessages.Takeover;
import koala.http.ApiException;
import koala.http.JsonHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A suspended word count's components handed from one real DeviceManager to another over loopback,
 * signed with the master's key, and the counts it then gives. The file: {@link CountedText}, 8000
 * words; 2 mappers: batches of 200 lines, 5 batches, one every second (a 5 s stream), so that the test,
 * not the clock, decides when it is suspended: the reader has sent exactly its first batch (at its
 * start) when it is suspended. Each move is the master's steps ({@code Mover}): suspend, hand over,
 * take over, repoint, release, resume.
 */
class WordCountMoveTest {
    private static final String APP = "j1.swc1";
    private LoopbackDevices devices;
    private String a;
    private String b;
    private String c;
    private Path text;

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException {
        devices = new LoopbackDevices(dir);
        a = devices.device("a");
        b = devices.device("b");
        c = devices.device("c");
        text = CountedText.write(dir);
    }

    @AfterEach
    void stop() {
        devices.close();
    }

    @Test
    void aWordCountSuspendedOnAMovedWholeToBAndResumedThereCountsExactlyTheFilesWords() {
        // all four components on a: counter, mappers 0 and 1, then the reader, which sends batch 0 at once
        wordCount(a, a, a, a);
        Map<?, ?> suspended = signed(a).post("/apps/" + APP + "/suspend", Map.of(), Map.class);
        assertThat(suspended.get("position")).as("the first batch sent, at its start").isEqualTo(1);

        Handover h = handover(a, "counter", "mapper 0", "mapper 1", "reader");
        assertThat(h.node()).isEqualTo("a");
        assertThat(h.components()).extracting(ComponentState::name)
                .containsExactly("counter", "mapper 0", "mapper 1", "reader");
        ComponentState reader = h.components().get(3);
        assertThat(reader.reader().position()).isEqualTo(1);
        assertThat(reader.reader().left()).as("4 batches of 200 lines still to send").hasSize(4)
                .allSatisfy(batch -> assertThat(batch).hasSize(200));
        // mapper 0 has counted batch 0: 200 lines of 8 words; mapper 1 nothing yet; the counter no report
        assertThat(h.components().get(1).counts().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1600);
        assertThat(h.components().get(2).counts()).isEmpty();
        assertThat(h.components().get(0).reported()).isEmpty();
        assertThat(handover(a, "counter", "mapper 0", "mapper 1", "reader"))
                .as("asked again, the same state: a move can be repeated").isEqualTo(h);
        assertThatThrownBy(() -> signed(a).post("/swc/" + APP + "/mappers/1/lines", new Lines(List.of("x"), false),
                Map.class)).as("a component handed over counts nothing more")
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409));

        takeOverAndRelease(h, b, List.of(b), new Repoint(List.of(b, b), b), a);
        assertThat(devices.status(a)).containsEntry("readers", List.of()).containsEntry("mappers", List.of())
                .containsEntry("counters", List.of()).containsEntry("suspended", List.of());
        assertThat(devices.status(b).get("suspended")).asList().containsExactly(APP);

        on(List.of(b), "resume");
        CountedText.assertCounted(devices.done(APP), "b");
    }

    /**
     * The counter and mapper 0 on a, mapper 1 and the reader on b; b's two move to c, a's stay: the
     * reader is pointed at mapper 0 on a and mapper 1 on c, mapper 1 at the counter on a.
     */
    @Test
    void aReaderAndAMapperMovedWhileTheCounterStaysGiveTheSameCounts() {
        wordCount(a, a, b, b);
        on(List.of(a, b), "suspend");
        Handover h = handover(b, "mapper 1", "reader");
        assertThat(h.components()).extracting(ComponentState::name).containsExactly("mapper 1", "reader");

        takeOverAndRelease(h, c, List.of(a, c), new Repoint(List.of(a, c), a), b);
        assertThat(devices.status(b).get("readers")).asList().isEmpty();
        on(List.of(a, c), "resume");
        CountedText.assertCounted(devices.done(APP), "a");
    }

    /**
     * Found on the testbed: mapper 1 and the reader on b, and only the reader moves to c (mapper 1 stays on
     * b). b hands over the reader alone; mapper 1 on b goes on counting what the reader, on c, sends it;
     * releasing b drops the reader only. The counts are the file's.
     */
    @Test
    void aComponentLeftOnAWorkerOthersLeaveGoesOnCounting() {
        wordCount(a, a, b, b);
        on(List.of(a, b), "suspend");
        Handover h = handover(b, "reader");
        assertThat(h.components()).extracting(ComponentState::name).containsExactly("reader");

        takeOverAndRelease(h, c, List.of(a, b, c), new Repoint(List.of(a, b), a), b);
        assertThat(devices.status(b)).containsEntry("readers", List.of()).containsEntry("mappers", List.of(APP + "#1"));
        on(List.of(a, b, c), "resume");
        CountedText.assertCounted(devices.done(APP), "a");
    }

    @Test
    void aRunningComponentIsNotHandedOverNorACommandWithoutTheKeyTaken() {
        devices.deploy(a, new Deploy(APP, "counter", 0, 5_000, 5, 0, null, List.of(a), null));
        assertThatThrownBy(() -> handover(a, "counter"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409))
                .hasMessage(APP + " is not suspended on a: a running component's state is not handed over");
        assertThatThrownBy(() -> new JsonHttpClient(URI.create(a), Duration.ofSeconds(5), LoopbackDevices.TOKEN.header())
                .post("/apps/" + APP + "/release", Map.of(), Map.class))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));
        assertThat(handover(b, "counter").components()).as("b holds nothing of it: nothing to hand over").isEmpty();
        assertThatThrownBy(() -> signed(b).post("/apps/" + APP + "/handover", Map.of(), Handover.class))
                .as("which components leave is the master's to say").isInstanceOfSatisfying(ApiException.class,
                        e -> assertThat(e.status()).isEqualTo(400)).hasMessageContaining("components");
    }

    /** The word count's counter, mappers 0 and 1, then its reader (which sends batch 0 at once), at these DeviceManagers. */
    private void wordCount(String counter, String mapper0, String mapper1, String reader) {
        List<String> mappers = List.of(mapper0, mapper1);
        devices.deploy(counter, new Deploy(APP, "counter", 0, 5_000, 5, 0, null, mappers, null));
        devices.deploy(mapper0, new Deploy(APP, "mapper", 0, 5_000, 5, 0, null, List.of(), counter));
        devices.deploy(mapper1, new Deploy(APP, "mapper", 1, 5_000, 5, 0, null, List.of(), counter));
        devices.deploy(reader, new Deploy(APP, "reader", 0, 5_000, 5, 0, text.toString(), mappers, null));
    }

    private static Handover handover(String from, String... components) {
        return signed(from).post("/apps/" + APP + "/handover", new HandoverRequest(List.of(components)), Handover.class);
    }

    /** {@code to} takes {@code h}'s components over, every one of {@code repointed} is pointed {@code at}, {@code from} releases them. */
    private static void takeOverAndRelease(Handover h, String to, List<String> repointed, Repoint at, String from) {
        signed(to).post("/apps/" + APP + "/takeover", new Takeover(APP, h.components(), at.mappers(), at.counter()),
                Map.class);
        repointed.forEach(dm -> signed(dm).post("/apps/" + APP + "/repoint", at, Map.class));
        signed(from).post("/apps/" + APP + "/release", Map.of(), Map.class);
    }

    /** {@code command} (suspend, resume) for the word count at each of {@code dms}. */
    private static void on(List<String> dms, String command) {
        dms.forEach(dm -> signed(dm).post("/apps/" + APP + "/" + command, Map.of(), Map.class));
    }
}
