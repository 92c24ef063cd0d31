package koala.fjm;

import java.util.List;

/** Where the FrameworkJobManager's records survive a restart: the scheduler's own database. */
public interface FrameworkStore {
    void saveFramework(FrameworkRecord record);

    List<FrameworkRecord> frameworks();
}
