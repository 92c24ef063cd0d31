package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The names of the answered requests in memory: never missing one added, seldom holding one that was not. */
class AnsweredNamesTest {
    @Test
    void everyNameAddedIsHeldUnderItsOwnerOnly() {
        AnsweredNames names = new AnsweredNames(0);
        names.add("alice", "submit:r-1");
        names.add("bob", "open:r-1");

        assertThat(names.mayHold("alice", "submit:r-1")).isTrue();
        assertThat(names.mayHold("bob", "open:r-1")).isTrue();
        assertThat(names.mayHold("bob", "submit:r-1")).as("another owner's name").isFalse();
        assertThat(names.mayHold("alice", "submit:r-2")).isFalse();
        assertThat(names.mayHold("alices", "ubmit:r-1")).as("owner and name are told apart").isFalse();
    }

    /** 65,536 names added, as many never added asked for: all of the first held, about one in 2,000 of the others. */
    @Test
    void aFullFilterHoldsEveryNameAndFewOthers() {
        AnsweredNames names = new AnsweredNames(0);
        for (int i = 0; i < AnsweredNames.LEAST; i++) {
            names.add("alice", "submit:" + java.util.UUID.nameUUIDFromBytes(("added " + i).getBytes()));
        }
        int falseHits = 0;
        for (int i = 0; i < AnsweredNames.LEAST; i++) {
            assertThat(names.mayHold("alice", "submit:" + java.util.UUID.nameUUIDFromBytes(("added " + i).getBytes())))
                    .isTrue();
            if (names.mayHold("alice", "submit:" + java.util.UUID.nameUUIDFromBytes(("never " + i).getBytes()))) {
                falseHits++;
            }
        }
        assertThat(falseHits).as("names held that were never added, of 65,536").isLessThan(200);
        assertThat(names.full()).isFalse();
        names.add("alice", "one more");
        assertThat(names.full()).as("more names than it was made for").isTrue();
    }

    @Test
    void itIsMadeForTheNamesItIsToHold() {
        assertThat(new AnsweredNames(10).capacity()).isEqualTo(AnsweredNames.LEAST);
        assertThat(new AnsweredNames(200_000).capacity()).isEqualTo(200_000);
    }
}
