package koala.scheduler.storage;

import java.util.List;
import koala.api.scheduler.TransitionView;

/** A job's history: its transitions and notes, in the order they were recorded. */
public interface HistoryStore {
    void recordTransition(long job, TransitionView transition);

    List<TransitionView> history(long job);
}
